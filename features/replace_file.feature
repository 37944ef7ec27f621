@replace-file
Feature: A photo's file replaced
  A user who edited a photo elsewhere puts the new file in the old one's place: the photo keeps its
  id, and so its albums and flags, and takes the new file and its name; the old file is kept in a
  new asset that waits in the trash. Only the photo's owner replaces its file. Only photos of users
  the harness makes are replaced: their copies in the trash go with them.

  Background:
    Given I use my API key

  @new-user
  Scenario: A photo takes a new file and keeps its id; the old file waits in the trash
    Given a new user who has uploaded a photo
    When they replace that photo's file with another photo
    Then the file is replaced, and the answer names another asset
    And that photo, read again, has the new file's checksum and name, and is not in the trash
    And the asset the answer names is in the trash, with the old file's checksum and name

  @new-user
  Scenario: A photo's own file is no replacement
    Given a new user who has uploaded a photo
    When they replace that photo's file with the same photo
    Then the replacement is a duplicate of that photo itself

  @new-user
  Scenario: No one else replaces a photo's file
    Given a new user who has uploaded a photo
    When I replace that photo's file with another photo
    Then the request is refused with status 400 and the message "Not found or no asset.update access"

  Scenario: A replacement names the photo's device and dates
    When I replace the file of a photo that is no one's, without its fields
    Then the request is refused with status 400 and the messages "deviceAssetId must be a string; deviceAssetId should not be empty; deviceId must be a string; deviceId should not be empty; fileCreatedAt must be a Date instance; fileCreatedAt should not be empty; fileModifiedAt must be a Date instance; fileModifiedAt should not be empty"

  Scenario: Without credentials, no file is replaced
    Given I use no credentials
    When I replace the file of a photo that is no one's, without its fields
    Then the request is refused with status 401 and the message "Authentication required"

@duplicate-groups
Feature: Duplicates
  Duplicate detection groups a user's photos that look alike, so that they can keep one of each
  group. It needs machine learning (off on the reference's test server, where it finds no group);
  whatever a server found, a group holds only its user's own photos, visible and out of the trash,
  each in one group only and marked with that group's id. A user resolves a group as the web app
  does: the photos kept leave it, the others go to the trash. Photos are grouped by hand (as the
  web app's bulk edit can) only as users the harness makes.

  Background:
    Given I use my API key

  Scenario: My groups of duplicates hold my own photos, each in one group
    When I list my groups of duplicates
    Then each group holds photos of mine out of the trash, marked with its id, and no photo is in two groups

  @new-user
  Scenario: A photo uploaded once is in no group
    Given a new user who has uploaded a photo
    When they list their groups of duplicates
    Then no group holds that photo

  @new-user
  Scenario: Photos put in one group are listed together, and leave it as the group is resolved
    Given a new user who has uploaded three photos
    When they put the three photos in one group of duplicates
    And they list their groups of duplicates
    Then one group holds the three photos
    When they move the third photo to the trash
    And they list their groups of duplicates
    Then one group holds the first two photos
    When they take the first two photos out of their group
    And they list their groups of duplicates
    Then they have no group of duplicates

  Scenario: Without credentials, no duplicates are listed
    Given I use no credentials
    When I list my groups of duplicates
    Then the request is refused with status 401 and the message "Authentication required"

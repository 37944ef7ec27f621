@libraries
Feature: External libraries of folders on the server's machine
  An admin makes an external library for a user: folders on the server's machine, less what its
  exclusion patterns match, whose photos and videos a scan imports as that user's assets. The
  admin names it, renames it and deletes it; asks whether folders will do, and why not; counts
  what a library holds. A scan answers at once and runs in the background: it imports the files
  it has not seen, each with its path on the server's machine, and marks offline the assets whose
  file is gone, which the admin then removes. A user who is not an admin does none of it. What a
  scan needs in a folder, the harness writes where the server reads it (--library-folder), and
  takes away again.

  Background:
    Given I use my API key

  Scenario: An admin makes a library, renames it and deletes it
    When an admin makes me an external library
    Then the library is named "New External Library", mine, with no import paths and no exclusion patterns, never scanned
    And the library counts 0 photos, 0 videos and 0 bytes
    When the admin renames the library "Family archive"
    Then the request succeeds
    And the library, read again, is named "Family archive"
    When the admin deletes the library
    Then the request succeeds
    And the libraries listed hold it no more

  Scenario: A library's paths are judged as the reference judges them
    When an admin makes me an external library with the import paths "/photos", "/photos"
    Then the request is refused with status 400 and the messages "All importPaths's elements must be unique"
    When an admin makes me an external library
    And the admin tries to rename the library ""
    Then the request is refused with status 400 and the messages "name should not be empty"
    When the admin validates the import paths "/", "/mediaspec/does/not/exist" for the library
    Then "/" is valid
    And "/mediaspec/does/not/exist" is not valid, because "Path does not exist (ENOENT)"

  Scenario: A scan answers at once, and a library of no folder holds nothing
    Given an admin makes me an external library
    When the admin scans the library
    Then the library is scanned soon, and holds 0 assets
    When the admin removes the library's offline assets
    Then the library counts 0 photos, 0 videos and 0 bytes

  @second-user
  Scenario: A user who is not an admin does nothing with libraries
    Given I use the other user's API key
    Then each operation on libraries is refused with status 403 and the message "Forbidden resource"

  Scenario: Without credentials, nothing
    Given I use no credentials
    Then each operation on libraries is refused with status 401 and the message "Authentication required"

  @library-folder
  Scenario: A scan imports a folder's photos and videos, and later finds one gone and one new
    Given a folder on the server's machine holding a photo, a video, a text file, a hidden photo and a photo in "Raw"
    And an admin makes me an external library of that folder, without "Raw"
    When the admin scans the library
    Then the library holds the photo and the video, mine, each with its path on the server's machine
    When the photo goes from the folder and another photo comes into it
    And the admin scans the library
    Then the photo's asset is offline, and the other photo is in the library
    When the admin removes the library's offline assets
    Then the library holds the video and the other photo

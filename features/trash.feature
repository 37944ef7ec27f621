@trash @new-user
Feature: The trash
  A photo moved to the trash waits there until its owner empties the trash or restores it. Emptying
  it deletes for good everything in it, and nothing else; restoring it brings back everything in
  it, into its albums too. A user empties and restores only their own trash. The harness does both
  only as users it makes for these scenarios: it never empties or restores the trash of a user it
  was given.

  Scenario: Emptying the trash deletes what is in it for good, and nothing else
    Given a new user with 2 new photos
    And they have moved the first of those photos to the trash
    When they empty their trash
    Then the first of those photos is gone for good
    And the second of those photos is still theirs, out of the trash

  Scenario: Restoring the trash brings back everything in it, into its album too
    Given a new user with 3 new photos, in an album of theirs
    And they have moved the first and second of those photos to the trash
    When they restore their trash
    Then each of those photos is theirs, out of the trash
    And their album holds the 3 photos again

  Scenario: Emptying a trash leaves another user's as it was
    Given a new user with 1 new photo
    And they have moved the first of those photos to the trash
    And another new user, with a new photo of theirs in their trash
    When the other new user empties their trash
    Then the other new user's photo is gone for good
    And the first of those photos is still in its owner's trash

  Scenario: Restoring a trash leaves another user's as it was
    Given a new user with 1 new photo
    And they have moved the first of those photos to the trash
    And another new user, with a new photo of theirs in their trash
    When the other new user restores their trash
    Then the other new user's photo is out of the trash
    And the first of those photos is still in its owner's trash

  Scenario Outline: Without credentials, no trash is emptied or restored
    Given I use no credentials
    When I <action> my trash
    Then the request is refused with status 401 and the message "Authentication required"

    Examples:
      | action  |
      | empty   |
      | restore |

  Scenario Outline: A shared link's key empties or restores no trash
    Given a new user with 1 new photo
    And they have shared those photos in a link
    And I use the key of that link
    When I <action> my trash
    Then the request is refused with status 403 and the message "Forbidden resource"
    And the first of those photos is still theirs, out of the trash

    Examples:
      | action  |
      | empty   |
      | restore |

@accounts @new-user
Feature: Accounts an admin manages
  An admin deletes users, restores them, and limits what they may store. A deleted user's shared
  links open nothing until the user is restored, and then open as before. A user's storage quota
  refuses an upload that would pass it, and keeps nothing of it. The harness makes these users
  with the admin's credentials: it deletes or limits no user it was given.

  Scenario: A deleted user's links open nothing, and open again once the user is restored
    Given a new user who has shared a new photo on its own
    When an admin deletes that user
    Then the link's key opens nothing any more
    When an admin restores that user
    And its holder opens the link
    Then the link opens with that photo

  Scenario: A storage quota refuses an upload that would pass it, and keeps nothing of it
    Given a new user whose storage quota holds one photo but not two
    When they upload a new photo
    Then the upload is accepted as new
    And their storage usage becomes that photo's size
    When they upload another new photo
    Then the upload is refused with status 400 and the message "Quota has been exceeded!"
    And they have 1 photo and no more

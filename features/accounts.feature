@accounts @new-user
Feature: Accounts an admin manages
  An admin sees every user with their account, the deleted ones when asked; deletes users, restores
  them, and limits what they may store; renames them, labels their storage, sets their password and
  their preferences. A deleted user's shared links open nothing until the user is restored, and
  then open as before; meanwhile other users no longer see them. A user's storage quota refuses an
  upload that would pass it, and keeps nothing of it. A user who is no admin does none of this. The
  harness makes these users with the admin's credentials: it deletes, limits or changes no user it
  was given.

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

  Scenario: An admin sees every user with their account, and a deleted one only among the deleted
    Given a new user who has logged in
    When an admin lists the users
    Then the list holds that user, with their account
    When an admin deletes that user, who may be restored
    Then an admin's list no longer holds them, but holds them with the deleted ones
    And an admin reads them as deleted
    And I no longer see them, in the list of users or on their own
    When an admin restores them
    Then I see them in the list of users again

  Scenario: An admin renames a user, limits their storage and labels it, and the user sees it
    Given a new user who has logged in
    When an admin gives them the name "Ada Okafor", a quota of 1000000 bytes and a storage label with dots and slashes
    Then the answer shows them so, the label without its dots and slashes
    And they see themselves so
    When an admin clears their quota and storage label
    Then they see themselves without a quota or storage label

  Scenario: An admin sets a user's password: it logs in, and the old one no longer does
    Given a new user who has logged in
    When an admin sets their password to a new one
    Then the request succeeds
    And they log in with the new password and not with the old one

  Scenario: An admin reads and sets a user's preferences, which the user then has
    Given a new user who has logged in
    When an admin reads their preferences
    Then memories are on, and the avatar's colour is their own
    When an admin chooses another avatar colour for them and turns their memories off
    Then their preferences show that colour, and memories off

  Scenario: A user who is no admin neither sees nor changes users as an admin does
    Given a new user who has logged in
    And another new user
    When the other new user lists the users as an admin
    Then the request is refused with status 403 and the message "Forbidden resource"
    When the other new user reads that user as an admin
    Then the request is refused with status 403 and the message "Forbidden resource"
    When the other new user renames that user as an admin
    Then the request is refused with status 403 and the message "Forbidden resource"
    And they see themselves unchanged

  Scenario: A user who is no admin neither reads nor sets another user's preferences
    Given a new user who has logged in
    And another new user
    When the other new user reads that user's preferences as an admin
    Then the request is refused with status 403 and the message "Forbidden resource"
    When the other new user changes that user's avatar colour as an admin
    Then the request is refused with status 403 and the message "Forbidden resource"
    And their preferences are unchanged

  Scenario: An admin asks in vain for a user the server does not know
    When an admin reads the user "00000000-0000-4000-8000-000000000000"
    Then the request is refused with status 400 and the message "User not found"
    When an admin renames the user "00000000-0000-4000-8000-000000000000"
    Then the request is refused with status 400 and the message "User not found"
    When an admin reads the preferences of the user "00000000-0000-4000-8000-000000000000"
    Then the request is refused with status 400 and the message "User not found"
    When an admin reads the user "not-a-uuid"
    Then the request is refused with status 400 and the messages "id must be a UUID"

  Scenario: An admin's change must be one the server takes, and a refused one changes nothing
    Given a new user who has logged in
    When an admin gives them a quota of -1 bytes
    Then the request is refused with status 400 and the messages "quotaSizeInBytes must be a positive number"
    When an admin gives them the avatar colour "mauve"
    Then the request is refused with status 400 and the messages "avatar.color must be one of the following values: primary, pink, red, yellow, blue, green, purple, orange, gray, amber"
    When an admin lists the users, asking for the deleted ones with "maybe"
    Then the request is refused with status 400 and the messages "withDeleted must be a boolean value"
    And they see themselves unchanged
    And their preferences are unchanged

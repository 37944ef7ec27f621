@users
Feature: Users as others see them, and as they change themselves
  Users see each other by name, email, avatar colour and portrait, and nothing of each other's
  accounts; a page shows each user with their portrait, or their initials where they have none: it
  asks for the portrait and must be told plainly that there is none. A user changes their own name
  and email, which others see at once; they cannot take another user's email. They choose their
  avatar's colour and whether memories are shown, and each stays until they change it. Their
  portrait is the last picture they uploaded as one, until they remove it.

  The harness changes only users it makes: it renames, re-colours or re-pictures no user it was
  given.

  Background:
    Given I use my API key

  @new-user
  Scenario: A user without a portrait has no profile image
    Given a new user who has no shared links
    When I ask for that user's profile image
    Then the request is refused with status 404 and the message "User does not have a profile image"

  Scenario: No one's profile image is not found
    When I ask for the profile image of the user "00000000-0000-4000-8000-000000000000"
    Then the request is refused with status 400 and the message "User not found"

  @new-user
  Scenario: Users see each other by name, email and avatar colour, and nothing of each other's accounts
    Given a new user who has logged in
    When I list the users
    Then the list holds that user by name, email and avatar colour, and nothing of their account
    When I read that user
    Then I see them by name, email and avatar colour, and nothing of their account

  Scenario: A user the server does not know is not found, and a user is named by their id
    When I read the user "00000000-0000-4000-8000-000000000000"
    Then the request is refused with status 400 and the message "User not found"
    When I read the user "not-a-uuid"
    Then the request is refused with status 400 and the messages "id must be a UUID"

  @new-user
  Scenario: A user renames themselves, and others see the new name at once
    Given a new user who has logged in
    When they change their name to "Ada Okafor"
    Then they are told their name is "Ada Okafor"
    And I see that user named "Ada Okafor"

  @new-user
  Scenario: A user changes their email, kept in lower case, and logs in with it and no longer with the old
    Given a new user who has logged in
    When they change their email to a new one in capitals
    Then they are told their new email, in lower case
    And they log in with their new email and not with the old one

  @new-user
  Scenario: A user cannot take another user's email, and a new email or name must be one
    Given a new user who has logged in
    And another new user
    When they change their email to the other new user's
    Then the request is refused with status 400 and the message "Email already in use by another account"
    When they change their email to "not-an-email"
    Then the request is refused with status 400 and the messages "email must be an email"
    When they change their name to ""
    Then the request is refused with status 400 and the messages "name should not be empty"
    And they see themselves unchanged

  @new-user
  Scenario: A user's preferences stay as they chose them, and others see their avatar's colour
    Given a new user who has logged in
    When they read their preferences
    Then memories are on, and the avatar's colour is their own
    When they choose another avatar colour and turn memories off
    Then their preferences show that colour, and memories off
    And I see that user with that colour
    When they turn memories on again
    Then their preferences show that colour, and memories on

  @new-user
  Scenario: A colour that is none of the avatar colours is refused, and changes nothing
    Given a new user who has logged in
    When they choose the avatar colour "mauve"
    Then the request is refused with status 400 and the messages "avatar.color must be one of the following values: primary, pink, red, yellow, blue, green, purple, orange, gray, amber"
    And their preferences are unchanged

  @new-user
  Scenario: A user's portrait is the last picture they uploaded, and others get it
    Given a new user who has logged in
    When they upload the profile picture "IMG_4021.JPG"
    Then they are told the picture's path, which is now their profile image's
    And I get their profile image, the bytes of that picture
    When they upload the profile picture "Screenshot_20240301-091500.png"
    Then they are told the picture's path, which is now their profile image's
    And I get their profile image, the bytes of that picture

  @new-user
  Scenario: A user removes their portrait, and then has none to remove
    Given a new user who has a profile picture
    When they remove their profile picture
    Then the request succeeds
    And they have no profile image
    When I ask for their profile image
    Then the request is refused with status 404 and the message "User does not have a profile image"
    When they remove their profile picture
    Then the request is refused with status 400 and the message "Can't delete a missing profile Image"

  @new-user
  Scenario: A portrait must be a picture, sent as the file
    Given a new user who has logged in
    When they upload the profile picture "VID_20240101_120000.mp4"
    Then the request is refused with status 400 and the message "Unsupported file type VID_20240101_120000.mp4"
    When they upload a profile picture under the part "photo"
    Then the request is refused with status 400 and the message "Unexpected field"
    And they have no profile image

  Scenario: Without credentials no one sees users, or changes a name, preferences or portrait
    Given I use no credentials
    When I list the users
    Then the request is refused with status 401 and the message "Authentication required"
    When I read my preferences
    Then the request is refused with status 401 and the message "Authentication required"
    When I change my name to "Nobody"
    Then the request is refused with status 401 and the message "Authentication required"
    When I remove my profile picture
    Then the request is refused with status 401 and the message "Authentication required"

  @new-user
  Scenario: A shared link's key sees no users, and changes nothing of its owner
    Given a new user who has shared a new photo on its own
    And I use the key of that link
    When I list the users
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I read my preferences
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I change my name to "Nobody"
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I remove my profile picture
    Then the request is refused with status 403 and the message "Forbidden resource"

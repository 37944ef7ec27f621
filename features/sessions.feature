@sessions
Feature: Logins, sessions and API keys
  A user logs in for a session. Its token is good until they log out, or end that session from
  another of theirs; they see each of their sessions, named by what logged in, the one they came
  with marked. A new password logs in at once and the old one no longer does, while their sessions
  and keys go on working. A user makes API keys for their scripts, sees them without their
  secrets, renames and deletes them; a deleted key is refused at once. No one sees, ends or
  changes another user's sessions or keys, and a shared link's key is no user's credential here.
  A server that has an admin makes no second one through sign-up.

  The harness does all this to users it makes: it logs out, ends the sessions of, or changes the
  password or keys of no user it was given.

  Scenario: An API key made in a session works at once
    Given I use a session of mine as a bearer token
    When I make an API key named "CI"
    Then the new key, named "CI", lists my shared links

  @new-user
  Scenario: A session's token is good until its user logs out of it, which an API key does not
    Given a new user who has logged in
    When they log out with their API key
    Then they are told they are logged out
    When they ask with that session whether their credentials are good
    Then they are told their credentials are good
    When they log out of that session
    Then they are told they are logged out
    And the token of that session is refused as an invalid user token

  Scenario: My API key is good, a token the server never gave is not, and no credentials are no one's
    Given I use my API key
    When I ask whether my credentials are good
    Then I am told my credentials are good
    When I use the bearer token "mediaspec-no-such-token"
    And I ask whether my credentials are good
    Then the request is refused with status 401 and the message "Invalid user token"
    When I use no credentials
    And I ask whether my credentials are good
    Then the request is refused with status 401 and the message "Authentication required"

  @new-user
  Scenario: A user sees each of their sessions, named by what logged in, the one they came with marked
    Given a new user who has logged in
    And they have logged in again from Chrome on Linux
    When they list their sessions with the first session
    Then they see both sessions, only the first marked current, the newest first
    And the second session is named "Chrome" on "Linux"

  @new-user
  Scenario: A user ends another session of theirs: its token is refused, and the one they came with still works
    Given a new user who has logged in
    And they have logged in again from Chrome on Linux
    When they end the second session from the first
    Then the request succeeds
    And the token of the second session is refused as an invalid user token
    And the token of the first session is still good
    And their sessions list only the first, marked current

  @new-user
  Scenario: A user ends every other session at once, and keeps the one they came with
    Given a new user who has logged in
    And they have logged in twice more
    When they end their other sessions from the first
    Then the request succeeds
    And the tokens of the other sessions are refused as invalid user tokens
    And their sessions list only the first, marked current

  @new-user @second-user
  Scenario: No one ends another user's session, and a session is named by its id
    Given a new user who has logged in
    When the other user ends that session
    Then the request is refused with status 400 and the message "Not found or no authDevice.delete access"
    And the token of that session is still good
    When they end the session "not-a-uuid"
    Then the request is refused with status 400 and the messages "id must be a UUID"

  Scenario: Without credentials no one sees or ends sessions, logs out, or sees API keys
    Given I use no credentials
    When I list my sessions
    Then the request is refused with status 401 and the message "Authentication required"
    When I end my other sessions
    Then the request is refused with status 401 and the message "Authentication required"
    When I log out
    Then the request is refused with status 401 and the message "Authentication required"
    When I list my API keys
    Then the request is refused with status 401 and the message "Authentication required"

  @new-user
  Scenario: A shared link's key shows no sessions or keys of its owner, ends none and logs no one out
    Given a new user who has shared a new photo on its own
    And I use the key of that link
    When I list my sessions
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I end my other sessions
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I log out
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I list my API keys
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I ask whether my credentials are good
    Then the request is refused with status 403 and the message "Forbidden resource"

  @new-user
  Scenario: A new password logs in at once, the old one no longer does, and sessions and keys go on working
    Given a new user who has logged in
    When they change their password to a new one
    Then they are answered with their own account
    And they log in with the new password and not with the old one
    And the token of that session is still good
    And their API key is still good

  @new-user
  Scenario: A wrong current password changes nothing, and a new password must be long enough
    Given a new user who has logged in
    When they change their password giving a wrong current one
    Then the request is refused with status 400 and the message "Wrong password"
    When they change their password to "short"
    Then the request is refused with status 400 and the messages "newPassword must be longer than or equal to 8 characters"
    And they still log in with their password

  @new-user
  Scenario: A user's API keys are listed newest first, and read, without their secrets
    Given a new user who has logged in
    When they make API keys named "laptop" and then "phone"
    And they list their API keys
    Then they see the keys they made, the newest first, then the one they had, none with its secret
    When they read the key named "laptop"
    Then they are shown the key named "laptop", without its secret

  @new-user
  Scenario: A renamed API key is listed under its new name, still works, and is what the rename answers
    Given a new user who has an API key named "laptop"
    When they rename that key "desktop"
    Then their list of keys names it "desktop"
    And that key is still good, named "desktop"
    And they were answered with the key named "desktop", without its secret

  @new-user
  Scenario: A deleted API key is refused at once
    Given a new user who has an API key named "laptop"
    When they delete that key
    Then the request succeeds
    And that key is refused as an invalid API key
    When they read that key
    Then the request is refused with status 400 and the message "API Key not found"

  @new-user @second-user
  Scenario: No one reads, renames or deletes another user's API key
    Given a new user who has an API key named "laptop"
    When the other user reads that key
    Then the request is refused with status 400 and the message "API Key not found"
    When the other user renames that key "stolen"
    Then the request is refused with status 400 and the message "API Key not found"
    When the other user deletes that key
    Then the request is refused with status 400 and the message "API Key not found"
    And that key is still good, named "laptop"

  @new-user
  Scenario: An API key's new name must be a name, and a key is named by its id
    Given a new user who has an API key named "laptop"
    When they rename that key ""
    Then the request is refused with status 400 and the messages "name should not be empty"
    When they read the key "not-a-uuid"
    Then the request is refused with status 400 and the messages "id must be a UUID"
    And that key is still good, named "laptop"

  @new-user
  Scenario: A server that has an admin makes no second one through sign-up
    When someone signs up as the server's first admin
    Then the request is refused with status 400 and the message "The server already has an admin"
    And the server has no user of that email

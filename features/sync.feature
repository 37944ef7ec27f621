@sync
Feature: The mobile app's sync
  The mobile app keeps a copy of a user's library, and of the libraries their partners share with
  them. Once, it asks for all of it, page by page, the newest first (a full sync); then it asks
  what changed since it last asked (a delta sync): the photos changed (a favourite, the archive,
  the trash) and the ids of those deleted for good, which the server remembers for 100 days. When
  it cannot tell (the app last asked too long ago, or it asks for other libraries than the user's
  and their partners'), the server says a full sync is needed. A partner's archived photos stay
  out of what changed. The audit of deletions also answers which photos or albums of a user were
  deleted since a time.

  @new-user
  Scenario: A full sync gives every photo of a user once, the newest first, page by page
    Given a new user with 3 new photos
    And the server is done with those photos
    And they have archived the second of those photos
    And they have moved the third of those photos to the trash
    When they ask for a full sync of their library in pages of 2
    Then the pages hold those 3 photos, each once, the newest first
    And the second of those photos is among them, archived
    And the third of those photos is among them, in the trash

  @new-user
  Scenario: A partner syncs the library shared with them, and no one else's
    Given a new user with 2 new photos
    And the server is done with those photos
    And they have shared their library with another new user
    When the other new user asks for a full sync of the new user's library in pages of 10
    Then the pages hold those 2 photos, each once, the newest first
    When they ask for a full sync of the other new user's library in pages of 10
    Then the request is refused with status 400 and the message "Not found or no timeline.read access"

  @new-user
  Scenario: A delta sync gives what changed since, and the photos deleted since
    Given a new user with 3 new photos
    And they have synced, once the server is done with those photos
    When they mark the first of those photos as a favourite
    And they delete the second of those photos for good
    And they ask what changed since then, for themselves
    Then the answer needs no full sync
    And what changed holds the first of those photos, a favourite
    And what changed leaves out the second of those photos
    And what was deleted is the second of those photos

  @new-user
  Scenario: A partner's archived photos stay out of what changed
    Given a new user with 2 new photos
    And they have shared their library with another new user
    And they have synced, once the server is done with those photos
    When they mark the first of those photos as a favourite
    And they have archived the second of those photos
    And the other new user asks what changed since then, for themselves and the new user
    Then the answer needs no full sync
    And what changed holds the first of those photos, not a favourite
    And what changed leaves out the second of those photos
    When they ask what changed since then, for themselves
    Then what changed holds the second of those photos, archived

  @new-user
  Scenario: A delta sync needs a full sync when it cannot tell what changed
    Given a new user with 1 new photo
    And they have shared their library with another new user
    When the other new user asks what changed since yesterday, for themselves
    Then the answer needs a full sync
    When the other new user asks what changed since yesterday, for themselves and the new user
    Then the answer needs no full sync
    When they ask what changed since yesterday, for themselves and the other new user
    Then the answer needs a full sync
    When they ask what changed since 101 days ago, for themselves
    Then the answer needs a full sync

  @new-user
  Scenario: The audit names the photos and albums deleted since a time
    Given a new user with 2 new photos, in an album of theirs
    And they have synced, once the server is done with those photos
    When they delete the first of those photos for good
    And they delete that album
    And they ask which of their photos were deleted since then
    Then the audit names the first of those photos alone, and needs no full sync
    When they ask which of their albums were deleted since then
    Then the audit names their album alone, and needs no full sync
    When they ask which of their photos were deleted since 101 days ago
    Then the audit needs a full sync

  @new-user
  Scenario: The audit of a partner's library, and of no one else's
    Given a new user with 1 new photo
    And they have shared their library with another new user
    When the other new user asks which of the new user's photos were deleted since yesterday
    Then the audit names nothing, and needs no full sync
    When they ask which of the other new user's photos were deleted since yesterday
    Then the request is refused with status 400 and the message "Not found or no timeline.read access"

  Scenario: What a sync asks for is judged as the reference judges it
    Given I use my API key
    When I ask for a full sync, with nothing in the body
    Then the request is refused with status 400 and the messages:
      | updatedUntil must be a Date instance |
      | updatedUntil should not be empty     |
      | limit must be a positive number      |
      | limit must be an integer number      |
    When I ask what changed, with nothing in the body
    Then the request is refused with status 400 and the messages:
      | updatedAfter must be a Date instance |
      | updatedAfter should not be empty     |
      | each value in userIds must be a UUID |
      | userIds should not be empty          |
      | userIds must be an array             |
    When I ask which photos were deleted, saying neither since when nor of what
    Then the request is refused with status 400 and the messages:
      | after must be a Date instance                                 |
      | after should not be empty                                     |
      | entityType must be one of the following values: ASSET, ALBUM |

  Scenario: Without credentials, nothing is synced
    Given I use no credentials
    When I ask for a full sync, with nothing in the body
    Then the request is refused with status 401 and the message "Authentication required"
    When I ask what changed, with nothing in the body
    Then the request is refused with status 401 and the message "Authentication required"
    When I ask which photos were deleted, saying neither since when nor of what
    Then the request is refused with status 401 and the message "Authentication required"

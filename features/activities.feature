@activities @second-user
Feature: Comments and likes on a shared album
  The owner of an album and the users it is shared with comment on the album and on its photos,
  and like them; each reads the whole thread, the oldest first, and sees how many comments there
  are. A like is given once. A comment or a like is deleted by its author, or by the album's
  owner, and by no one else. Someone the album is not shared with neither reads nor writes its
  thread, nor does the holder of the album's link; and an album whose owner turned its activity
  off takes no more.

  Background:
    Given I use my API key

  Scenario: The album's owner and its user comment and like, and both read one thread
    Given I have shared an album of a new photo with the other user
    And I have commented "Lovely light" on the photo
    And the other user has liked the photo
    And the other user has commented "Where was this?" on the album
    When the other user reads the album's thread
    Then it is my comment, their like and their comment, the oldest first
    And the photo's thread is my comment and their like, and the album's own is their comment
    And the other user's likes are their one like
    And the album counts 2 comments, and the photo 1

  Scenario: A like is given once
    Given I have shared an album of a new photo with the other user
    And the other user has liked the photo
    When the other user likes the photo again
    Then the like they are given back is the first one
    And the photo's thread holds that one like

  Scenario: A comment is deleted by its author or by the album's owner, and by no one else
    Given I have shared an album of a new photo with the other user
    And I have commented "Lovely light" on the photo
    And the other user has commented "Where was this?" on the photo
    When the other user deletes my comment
    Then the request is refused with status 400 and the message "Not found or no activity.delete access"
    When I delete the other user's comment
    Then the request succeeds
    When I delete my comment
    Then the request succeeds
    And the album's thread is empty

  Scenario: Someone the album is not shared with neither reads nor writes its thread
    Given I have made an album of a new photo, shared with no one
    And I have commented "Lovely light" on the photo
    When the other user reads the album's thread
    Then the request is refused with status 400 and the message "Not found or no album.read access"
    When the other user asks how many comments the album has
    Then the request is refused with status 400 and the message "Not found or no album.read access"
    When the other user comments "Hello" on the album
    Then the request is refused with status 400 and the message "Not found or no activity.create access"
    When the other user deletes my comment
    Then the request is refused with status 400 and the message "Not found or no activity.delete access"
    And the album's thread is my comment alone

  Scenario: The holder of the album's link neither reads nor writes its thread
    Given I have shared an album of a new photo with the other user
    And I have shared that album in a link
    And I use the key of that link
    When I read the album's thread
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I like the photo
    Then the request is refused with status 403 and the message "Forbidden resource"

  Scenario: An album whose activity is turned off takes no more comments
    Given I have shared an album of a new photo with the other user
    When I turn the album's activity off
    And the other user comments "Hello" on the album
    Then the request is refused with status 400 and the message "Not found or no activity.create access"

  Scenario: A comment needs its text, an album and an activity their UUIDs
    Given I have shared an album of a new photo with the other user
    When I comment "" on the album
    Then the request is refused with status 400 and the messages "comment should not be empty"
    When I read the thread of the album "not-a-uuid"
    Then the request is refused with status 400 and the messages "albumId must be a UUID"
    When I delete the activity "not-a-uuid"
    Then the request is refused with status 400 and the messages "id must be a UUID"

  Scenario: Without credentials, no thread is read or written
    Given I use no credentials
    Then each operation on activities is refused with status 401 and the message "Authentication required"

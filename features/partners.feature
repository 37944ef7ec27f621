@partners @new-user
Feature: Partners
  A user shares their whole library with another user, their partner: the partner reads its photos,
  but not those archived or in the trash, for as long as the partnership lasts. Each of them sees
  the partnership from their side. The partner, and only they, decides whether that library shows
  in their own timeline and memory lane. The harness makes both users of these scenarios: no user it
  was given shares their library, or is shown another's.

  Scenario: A partner reads the library shared with them, but not its archived or trashed photos
    Given a new user with 3 new photos
    And they have archived the second of those photos
    And they have moved the third of those photos to the trash
    And another new user, who cannot read the first of those photos
    When they share their library with the other new user
    Then the answer names the other new user, who does not show that library in their timeline
    And the other new user reads the first of those photos, but neither the second nor the third

  Scenario: Each side of a partnership sees it
    Given a new user who shares their library with another new user
    When they list the users they share their library with
    Then the list holds the other new user alone
    When the other new user lists the users who share their library with them
    Then the list holds the new user alone, not shown in their timeline

  Scenario: A partner's library shows in their timeline and memory lane only when they ask
    Given a new user with 3 new photos
    And they have archived the second of those photos
    And they have moved the third of those photos to the trash
    And they have shared their library with another new user
    Then the other new user's timeline and memory lane show none of those photos
    When the other new user shows that library in their timeline
    Then the answer names the new user, whose library shows in their timeline
    And the other new user's timeline and memory lane show the first of those photos, and only it

  Scenario: Only the partner decides whether a library shows in their timeline
    Given a new user who shares their library with another new user
    When they show their own library in the other new user's timeline
    Then the request is refused with status 400 and the message "Not found or no partner.update access"

  Scenario: A partner no longer reads the library once the partnership ends
    Given a new user with 1 new photo
    And they have shared their library with another new user
    When they stop sharing their library with the other new user
    Then the request succeeds
    And the other new user no longer reads the first of those photos, and lists no one who shares their library with them

  Scenario: A library is shared with a user once
    Given a new user who shares their library with another new user
    When they share their library with the other new user
    Then the request is refused with status 400 and the message "Partner already exists"

  Scenario: No one shares their library with themselves
    Given a new user
    When they share their library with themselves
    Then the request is refused with status 400 and the message "User not found"

  Scenario: Only a partnership that exists is ended
    Given a new user who shares their library with another new user
    When the other new user stops sharing their library with the new user
    Then the request is refused with status 400 and the message "Partner not found"

  Scenario: Whether a library shows in a timeline is yes or no
    Given a new user who shares their library with another new user
    When the other new user answers "sometimes" to showing that library in their timeline
    Then the request is refused with status 400 and the messages "inTimeline must be a boolean value"

  Scenario: A partner is named by their id
    Given a new user
    When they share their library with the user "not-an-id"
    Then the request is refused with status 400 and the messages "id must be a UUID"

  Scenario: Without credentials, no library is shared and no partner listed
    Given I use no credentials
    When I list the users I share my library with
    Then the request is refused with status 401 and the message "Authentication required"
    When I share my library with the user "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60"
    Then the request is refused with status 401 and the message "Authentication required"
    When I show the library of the user "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60" in my timeline
    Then the request is refused with status 401 and the message "Authentication required"
    When I stop sharing my library with the user "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60"
    Then the request is refused with status 401 and the message "Authentication required"

  Scenario: A shared link's key shares no library and lists no partner
    Given a new user with 1 new photo
    And they have shared those photos in a link
    And I use the key of that link
    When I list the users I share my library with
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I share my library with the user "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60"
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I show the library of the user "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60" in my timeline
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I stop sharing my library with the user "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60"
    Then the request is refused with status 403 and the message "Forbidden resource"

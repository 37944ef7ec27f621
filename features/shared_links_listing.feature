@shared-links
Feature: Listing my shared links
  A user sees all of their own shared links, and only theirs: expired links too, newest first.
  A link to an album carries the album; a link to individual assets carries those assets.
  Rules about the links a user already has are judged on their links: a scenario that finds no
  links to judge (or, for their order, fewer than two) is skipped with that reason, not passed.

  Background:
    Given I use my API key

  Scenario: Links come newest first
    When I list my shared links
    Then the request succeeds
    And the links are in order of creation, newest first

  Scenario: Album links carry their album, individual links their assets
    When I list my shared links
    Then every album link carries its album
    And every individual link carries no album and at least one asset

  Scenario: The link made last comes before the one made before it
    Given I have shared an album
    And I have shared a new photo on its own
    When I list my shared links
    Then the photo's link comes before the album's

  Scenario: Expired links are listed too
    Given I have shared an album whose link has expired
    When I list my shared links
    Then the list holds that link
    And that link's expiry date has passed

  @second-user
  Scenario: Another user's links are not in my list
    Given I have shared an album
    And the other user has shared an album
    When I list my shared links
    Then the list holds my link and not the other user's
    And every link in the list is mine

  @second-user
  Scenario: Two users never see each other's links
    Each user first shares an album, which their list must then hold; the harness learns each
    user's id from it.

    Given each of us has shared an album
    When I list my shared links
    And the other user lists their shared links
    Then no link is in both lists
    And within each list every link has the same owner, and a different one in each list
    And that owner is the user who listed the list

  @new-user
  Scenario: A user without links gets an empty list
    Given a new user who has no shared links
    When they list their shared links
    Then the list is empty

@library @shared-links
Feature: What a shared link shows as the library changes
  A link shows what its owner's library holds now, to whoever opens it with its key. A photo its
  owner moves to the trash leaves the link, and comes back when restored; a photo taken out of an
  album leaves the album's link; a photo an editor of the album adds joins it, though it is the
  editor's. The link's timeline, the page a holder scrolls month by month, counts and shows exactly
  the album's photos of each month.

  Background:
    Given I use my API key

  Scenario: A trashed photo leaves a link, and comes back when restored
    Given I have shared 2 new photos in a link of their own
    When I move the first of those photos to the trash
    Then the link's holder sees only the second of those photos
    When I restore the first of those photos from the trash
    Then the link's holder sees both of those photos

  Scenario: A photo taken out of an album leaves the album's link
    Given I have shared an album of 2 new photos
    When I take the first of those photos out of the album
    Then the link's holder sees only the second of those photos

  @second-user
  Scenario: A photo an editor adds to a shared album joins the album's link
    Given I have shared an album of 2 new photos
    And the other user is an editor of that album
    When the other user uploads a new photo and adds it to the album
    Then the link's holder sees both of those photos and the other user's

  Scenario: A link's timeline counts and shows exactly the album's photos of each month
    Given I have shared an album of two photos taken in June 2023 and one taken in April 2024
    When the link's holder opens the album's timeline by month
    Then each month counts and shows exactly the album's photos of that month

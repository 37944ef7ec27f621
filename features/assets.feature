@assets
Feature: Assets and stacks
  A photo's owner marks it as a favourite, archives it, describes it, and says when and where it
  was taken: one photo at a time, or many at once. They gather photos in a stack under one of them,
  its parent, make another of them the parent, and take a photo out of its stack again. No one else
  changes their photos or their stacks. Random picks and memory lane ("on this day, years ago") show
  a user their own photos, never those in the trash; memory lane leaves out the archived ones too.

  Scenario: A photo's owner marks it as a favourite and archives it
    Given I have 1 new photo
    When I mark the first of those photos as a favourite and archive it
    Then the answer shows the photo as a favourite, archived
    And the first of those photos, read again, is a favourite, archived

  Scenario: A photo's owner describes it and says when and where it was taken
    Given I have 1 new photo
    When I describe the first of those photos as "Tram 28 at dusk", taken at "2021-03-04T05:06:07.000+09:00" in 35.6895, 139.6917
    Then the first of those photos, read again, is described as "Tram 28 at dusk", taken at "2021-03-04T05:06:07.000+09:00", in 35.6895, 139.6917, in "Japan"

  Scenario: Several photos are marked, archived, dated and placed at once
    Given I have 2 new photos
    When I mark those photos as favourites, archive them, and say they were taken at "2020-02-03T04:05:06.000Z" in 48.8566, 2.3522, all at once
    Then the request succeeds
    And each of those photos, read again, is a favourite, archived, taken at "2020-02-03T04:05:06.000Z", in 48.8566, 2.3522

  @second-user
  Scenario: No one changes another user's photo, alone or beside their own
    Given I have 1 new photo
    And the other user has a new photo
    When I mark the other user's photo as a favourite
    Then the request is refused with status 400 and the message "Not found or no asset.update access"
    When I mark the first of those photos and the other user's as favourites, at once
    Then the request is refused with status 400 and the message "Not found or no asset.update access"
    And the first of those photos, read again, is not a favourite
    And the other user's photo is not a favourite

  Scenario: A change of a photo is refused whole when one of its values is of the wrong kind
    Given I have 1 new photo
    When I change the first of those photos with:
      """
      {"isFavorite": "yes", "isArchived": 3, "description": 5, "dateTimeOriginal": "yesterday", "latitude": "north", "longitude": "east"}
      """
    Then the request is refused with status 400 and the messages:
      | description must be a string                           |
      | isFavorite must be a boolean value                     |
      | isArchived must be a boolean value                     |
      | dateTimeOriginal must be a valid ISO 8601 date string  |
      | latitude must be a latitude string or number           |
      | longitude must be a longitude string or number         |
    And the first of those photos, read again, is not a favourite

  Scenario: A place is a latitude with its longitude
    Given I have 1 new photo
    When I change the first of those photos with:
      """
      {"latitude": 38.7}
      """
    Then the request is refused with status 400 and the messages "longitude should not be empty; longitude must be a longitude string or number"

  Scenario: A change of several photos names each of them by its id
    When I change several photos with:
      """
      {"ids": ["not-an-id"], "isFavorite": "yes"}
      """
    Then the request is refused with status 400 and the messages "each value in ids must be a UUID; isFavorite must be a boolean value"

  Scenario: A photo is named by its id
    When I change the photo "not-an-id" with:
      """
      {"isFavorite": true}
      """
    Then the request is refused with status 400 and the messages "id must be a UUID"

  Scenario: Photos gathered in a stack show it, under their parent
    Given I have 3 new photos
    When I stack the second and third of those photos under the first
    Then the request succeeds
    And the first of those photos leads a stack of the three, and each of them shows it

  Scenario: Another photo of a stack becomes its parent
    Given I have 3 new photos, stacked under the first
    When I make the second of those photos the stack's parent
    Then the request succeeds
    And the second of those photos leads a stack of the three, and each of them shows it

  Scenario: A photo taken out of its stack stands alone again
    Given I have 3 new photos, stacked under the first
    When I take the third of those photos out of its stack
    Then the request succeeds
    And the first of those photos leads a stack of the first and second, and each of them shows it
    And the third of those photos is in no stack

  Scenario: A stack's parent is one of its own photos
    Given I have 3 new photos
    And I have stacked the second of those photos under the first
    When I make the third of those photos the stack's parent
    Then the request is refused with status 400 and the message "Asset not found or not in a stack"
    And the first of those photos leads a stack of the first and second, and each of them shows it
    And the third of those photos is in no stack

  Scenario: A stack's parent is changed only where there is a stack
    Given I have 2 new photos
    When I make the second of those photos the stack's parent
    Then the request is refused with status 400 and the message "Asset not found or not in a stack"
    And the first of those photos is in no stack
    And the second of those photos is in no stack

  @second-user
  Scenario: No one changes the parent of another user's stack
    Given I have 2 new photos, stacked under the first
    When the other user makes the second of those photos the stack's parent
    Then the request is refused with status 400 and the message "Not found or no asset.read access"
    And the first of those photos leads a stack of the first and second, and each of them shows it

  @second-user
  Scenario: No one stacks their photos under another user's
    Given I have 1 new photo
    And the other user has a new photo
    When I stack the first of those photos under the other user's photo
    Then the request is refused with status 400 and the message "Not found or no asset.update access"
    And the first of those photos is in no stack

  Scenario: A stack's parents are named by their ids
    When I change a stack's parent with:
      """
      {"oldParentId": "not-an-id"}
      """
    Then the request is refused with status 400 and the messages:
      | oldParentId must be a UUID     |
      | newParentId must be a UUID     |
      | newParentId should not be empty |
      | newParentId must be a string   |

  @new-user
  Scenario: Random picks are the user's own photos out of the trash, archived ones too
    Given a new user with 3 new photos
    And they have archived the second of those photos
    And they have moved the third of those photos to the trash
    When they ask for 10 photos at random
    Then they get 2 of their photos out of the trash, none twice, the first of those photos among them
    When they ask for a photo at random
    Then they get 1 of their photos out of the trash, none twice

  Scenario Outline: How many random picks a user asks for is a whole number above zero
    When I ask for "<count>" photos at random
    Then the request is refused with status 400 and the messages "<messages>"

    Examples:
      | count | messages                                                   |
      | 0     | count must be a positive number                            |
      | 2.5   | count must be an integer number                            |
      | many  | count must be a positive number; count must be an integer number |

  @new-user
  Scenario: Memory lane shows the photos taken on a day in earlier years, but not archived or trashed ones
    The new photos were taken on 14 June 2023, as their EXIF says.
    Given a new user with 3 new photos
    And they have archived the second of those photos
    And they have moved the third of those photos to the trash
    When they walk down memory lane on 14 June
    Then they see the first of those photos, and only it, as taken the years ago since 2023
    When they walk down memory lane on 15 June
    Then they see nothing

  Scenario: A day of memory lane is a day of a month
    When I walk down memory lane on day 0 of month 13
    Then the request is refused with status 400 and the messages "day must not be less than 1; month must not be greater than 12"

  Scenario: Without credentials, no photo is changed, stacked or picked
    Given I have 2 new photos
    And I use no credentials
    When I mark the first of those photos as a favourite
    Then the request is refused with status 401 and the message "Authentication required"
    When I mark those photos as favourites, at once
    Then the request is refused with status 401 and the message "Authentication required"
    When I stack the second of those photos under the first
    Then the request is refused with status 401 and the message "Authentication required"
    When I make the second of those photos the stack's parent
    Then the request is refused with status 401 and the message "Authentication required"
    When I ask for a photo at random
    Then the request is refused with status 401 and the message "Authentication required"
    When I walk down memory lane on 14 June
    Then the request is refused with status 401 and the message "Authentication required"

  Scenario: A shared link's key changes, stacks and picks no photo
    Given I have 2 new photos
    And I have shared those photos in a link
    And I use the key of that link
    When I mark the first of those photos as a favourite
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I mark those photos as favourites, at once
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I stack the second of those photos under the first
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I make the second of those photos the stack's parent
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I ask for a photo at random
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I walk down memory lane on 14 June
    Then the request is refused with status 403 and the message "Forbidden resource"

@albums @album-users
Feature: Albums and their users
  An album's owner renames it, describes it and chooses its cover among its photos. They share it
  with other users, each in a role: an editor adds photos of their own, a viewer only looks. The
  owner changes a user's role and takes a user off the album, and a user may leave it: either way
  they no longer see it. Only the owner changes, shares or deletes an album; deleting it takes the
  links that share it with it, and keeps its photos. A user's count of albums says how many they
  own, how many are shared (theirs with someone, and others' with them), and how many of theirs
  are not.

  Scenario: An album's owner renames and describes it, and the album reads so afterwards
    Given I have made an album of 2 new photos
    When I rename the album "Lisbon, June 2023" and describe it as "Trams and tiles"
    Then the answer is the album named "Lisbon, June 2023" and described as "Trams and tiles", counting its 2 photos
    And the album, read again, is named "Lisbon, June 2023" and described as "Trams and tiles"

  Scenario: An album's owner chooses its cover among its photos
    Given I have made an album of 2 new photos
    When I choose the second of those photos as the album's cover
    Then the request succeeds
    And the album's cover is the second of those photos

  Scenario: A photo the album does not hold cannot be its cover
    Given I have made an album of 2 new photos
    And I have uploaded another new photo, outside the album
    When I choose that other photo as the album's cover
    Then the request is refused with status 400 and the message "Invalid album thumbnail"
    And the album's cover is still the one it had

  Scenario: A change of an album is refused whole when one of its values is of the wrong kind
    Given I have made an album of 1 new photo
    When I change the album with:
      """
      {"albumName": 5, "description": 7, "albumThumbnailAssetId": "not-an-id", "isActivityEnabled": "maybe", "order": "sideways"}
      """
    Then the request is refused with status 400 and the messages:
      | albumName must be a string                           |
      | description must be a string                         |
      | albumThumbnailAssetId must be a UUID                 |
      | isActivityEnabled must be a boolean value            |
      | order must be one of the following values: asc, desc |
    And the album, read again, keeps its name

  @second-user
  Scenario: Only its owner changes an album, not even an editor of it
    Given I have made an album of 1 new photo
    And I have shared the album with the other user as an editor
    When the other user renames the album "Theirs now"
    Then the request is refused with status 400 and the message "Not found or no album.update access"
    And the album, read again, keeps its name

  @second-user
  Scenario: An editor adds photos of their own to an album; made a viewer, they only look
    Given I have made an album of 1 new photo
    And I have shared the album with the other user as an editor
    When the other user adds a new photo of theirs to the album
    Then their photo is added
    When I make the other user a viewer of the album
    Then the request succeeds
    And the album shows the other user as a viewer
    When the other user adds a new photo of theirs to the album
    Then the request is refused with status 400 and the message "Not found or no album.addAsset access"
    And the other user still sees the album, holding my photo and the one they added

  @second-user
  Scenario: Only an album's owner changes the roles of its users
    Given I have made an album of 1 new photo
    And I have shared the album with the other user as a viewer
    When the other user makes themselves an editor of the album
    Then the request is refused with status 400 and the message "Not found or no album.share access"
    And the album shows the other user as a viewer

  @second-user
  Scenario: The role of a user the album is not shared with cannot be changed
    Given I have made an album of 1 new photo
    When I make the other user a viewer of the album
    Then the request is refused with status 400 and the message "Album not shared with user"

  @second-user
  Scenario: A user of an album is an editor or a viewer, nothing else
    Given I have made an album of 1 new photo
    And I have shared the album with the other user as a viewer
    When I make the other user an owner of the album
    Then the request is refused with status 400 and the messages "role must be one of the following values: editor, viewer"
    And the album shows the other user as a viewer

  @second-user
  Scenario: A user taken off an album no longer sees it
    Given I have made an album of 1 new photo
    And I have shared the album with the other user as a viewer
    When I take the other user off the album
    Then the request succeeds
    And the other user no longer sees the album, nor finds it among the albums shared with them
    And the album no longer shows the other user

  @second-user
  Scenario: A user leaves an album shared with them, and no longer sees it
    Given I have made an album of 1 new photo
    And I have shared the album with the other user as an editor
    When the other user leaves the album
    Then the request succeeds
    And the other user no longer sees the album, nor finds it among the albums shared with them

  Scenario: No one takes an album's owner off it
    Given I have made an album of 1 new photo
    When I take myself off the album
    Then the request is refused with status 400 and the message "Cannot remove album owner"

  @second-user @new-user
  Scenario: A user the album is not shared with takes no one off it
    Given I have made an album of 1 new photo
    And I have shared the album with a new user as a viewer
    When the other user takes the new user off the album
    Then the request is refused with status 400 and the message "Not found or no album.share access"
    And the new user still sees the album

  Scenario: Deleting an album takes the links that share it with it, and keeps its photos
    Given I have made an album of 2 new photos
    And I have shared the album in a link
    When I delete the album
    Then the request succeeds
    And the album is gone
    And the link's key opens nothing any more
    And those photos are still mine

  @second-user
  Scenario: Only its owner deletes an album, not a user it is shared with
    Given I have made an album of 1 new photo
    And I have shared the album with the other user as an editor
    When the other user deletes the album
    Then the request is refused with status 400 and the message "Not found or no album.delete access"
    And the album still holds its photo

  @new-user
  Scenario: A user's count of albums follows the albums they make, share and delete
    Given a new user
    Then their albums count 0 owned, 0 shared and 0 not shared
    When they make an album
    Then their albums count 1 owned, 0 shared and 1 not shared
    When they share that album in a link
    Then their albums count 1 owned, 1 shared and 0 not shared
    When they delete that album
    Then their albums count 0 owned, 0 shared and 0 not shared

  @new-user
  Scenario: An album shared with a user counts as shared with them, not as theirs
    Given a new user
    And I have made an album of 1 new photo
    And I have shared the album with the new user as a viewer
    Then their albums count 0 owned, 1 shared and 0 not shared

  Scenario Outline: An album is named by its id
    When I <action> the album whose id is "not-an-id"
    Then the request is refused with status 400 and the messages "id must be a UUID"

    Examples:
      | action                  |
      | rename                  |
      | delete                  |
      | make a user a viewer of |
      | take a user off         |

  Scenario Outline: A user of an album is named by their id
    Given I have made an album of 1 new photo
    When I <action>
    Then the request is refused with status 400 and the message "Validation failed (uuid v 4 is expected)"

    Examples:
      | action                                        |
      | make the user "not-an-id" a viewer of the album |
      | take the user "not-an-id" off the album         |

  Scenario: Without credentials, no album is counted, changed, shared or deleted
    Given I have made an album of 1 new photo
    And I use no credentials
    When I count my albums
    Then the request is refused with status 401 and the message "Authentication required"
    When I rename the album "Anyone's"
    Then the request is refused with status 401 and the message "Authentication required"
    When I make the user "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60" a viewer of the album
    Then the request is refused with status 401 and the message "Authentication required"
    When I take the user "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60" off the album
    Then the request is refused with status 401 and the message "Authentication required"
    When I delete the album
    Then the request is refused with status 401 and the message "Authentication required"

  Scenario: A shared link's key counts, changes, shares and deletes no album
    Given I have made an album of 1 new photo
    And I have shared the album in a link
    And I use the key of that link
    When I count my albums
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I rename the album "Anyone's"
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I make the user "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60" a viewer of the album
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I take the user "6d3b6f1e-2f8a-4c57-9b0e-4a1d2c3e5f60" off the album
    Then the request is refused with status 403 and the message "Forbidden resource"
    When I delete the album
    Then the request is refused with status 403 and the message "Forbidden resource"

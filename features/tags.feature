@tags
Feature: Tags
  A user labels their own photos with tags of their own, each name once (names differ by case).
  Renamed, a tag reads anew on every photo it labels; deleted, it comes off them. A photo in the
  trash is out of its tag's sight until restored. Another user's tag is not found.

  Background:
    Given I use my API key

  Scenario: A tag labels photos, is renamed, and is deleted
    Given I have 2 new photos
    And I have made a tag
    When I label those photos with the tag
    Then the outcomes are "success, success"
    And the tag lists those photos
    And the first of those photos shows the tag
    When I rename the tag
    Then the first of those photos shows the tag under its new name
    When I delete the tag
    Then the request succeeds
    And the first of those photos shows no tag

  Scenario: A name is one tag's, in its case
    Given I have made a tag
    When I make a tag of the same name
    Then the request is refused with status 400 and the message "A tag with that name already exists"
    When I make a tag of the same name in upper case
    Then the request succeeds

  Scenario: A label is given once, and taken off where it is
    Given I have 2 new photos
    And I have made a tag
    And I have labelled the first of those photos with the tag
    When I label those photos with the tag
    Then the outcomes are "duplicate, success"
    When I take the tag off the first of those photos, twice over
    Then the outcomes are "success, success"
    And the tag lists the second of those photos alone

  Scenario: A photo in the trash is out of its tag's sight until restored
    Given I have 2 new photos
    And I have made a tag
    And I have labelled those photos with the tag
    When I put the first of those photos in the trash
    Then the tag lists the second of those photos alone
    When I take the first of those photos out of the trash
    Then the tag lists those photos

  @new-user
  Scenario: Another user's tag is not found
    Given a new user with 1 new photo
    And they have made a tag, labelling that photo
    When I read their tag
    Then the request is refused with status 400 and the message "Tag not found"
    When I list the photos of their tag
    Then the request is refused with status 400 and the message "Tag not found"
    When I rename their tag
    Then the request is refused with status 400 and the message "Tag not found"
    When I label a new photo of mine with their tag
    Then the request is refused with status 400 and the message "Tag not found"
    When I delete their tag
    Then the request is refused with status 400 and the message "Tag not found"

  Scenario: A tag needs a name and a type, and a tag's id is a UUID
    When I make a tag from {}
    Then the request is refused with status 400 and the messages "name should not be empty; name must be a string; type should not be empty; type must be one of the following values: OBJECT, FACE, CUSTOM"
    When I make a tag from {"name":"","type":"PLACE"}
    Then the request is refused with status 400 and the messages "name should not be empty; type must be one of the following values: OBJECT, FACE, CUSTOM"
    When I read the tag "not-a-uuid"
    Then the request is refused with status 400 and the messages "id must be a UUID"

  Scenario: Without credentials, no tag is read or made
    Given I use no credentials
    Then each operation on tags is refused with status 401 and the message "Authentication required"

@memories
Feature: Memories of a day
  A user keeps memories: selections of their photos for a day of years past ("on this day"), which
  their web app shows as stories. Only they read, change or delete one, and only photos they may
  share go in; each photo added or taken out gets its own outcome. A photo they move to the trash
  is out of a memory's sight until they restore it; one they delete for good leaves it.

  Background:
    Given I use my API key

  Scenario: A memory is made of my photos, changed, and deleted
    Given I have 2 new photos
    When I make a memory of the year 2021 holding those photos
    Then the memory is of the year 2021, holds those photos, is not saved and was never seen
    When I mark the memory saved and seen
    Then the memory reads saved and seen, and changed after it was made
    When I delete the memory
    Then the request succeeds
    When I read the memory
    Then the request is refused with status 400 and the message "Not found or no memory.read access"

  Scenario: Photos are added to a memory and taken out, each with its outcome
    Given I have 2 new photos
    And I have made a memory of the year 2020 holding the first of those photos
    When I add those photos to the memory
    Then the outcomes are "duplicate, success"
    And the memory holds those photos
    When I take those photos and the first again out of the memory
    Then the outcomes are "success, success, not_found"
    And the memory holds no photo

  Scenario: A photo in the trash is out of a memory's sight until restored, and leaves it when deleted for good
    Given I have 2 new photos
    And I have made a memory of the year 2019 holding those photos
    When I put the first of those photos in the trash
    Then the memory holds the second of those photos alone
    When I take the first of those photos out of the trash
    Then the memory holds those photos
    When I delete the first of those photos for good
    Then the first of those photos leaves the memory
    And the memory holds the second of those photos alone

  @new-user
  Scenario: Another user's memory is out of my reach, and their photos out of my memories
    Given a new user with 1 new photo
    And they have made a memory of the year 2021 holding that photo
    When I read their memory
    Then the request is refused with status 400 and the message "Not found or no memory.read access"
    When I mark their memory saved and seen
    Then the request is refused with status 400 and the message "Not found or no memory.write access"
    When I add a new photo of mine to their memory
    Then the request is refused with status 400 and the message "Not found or no memory.read access"
    When I take their photo out of their memory
    Then the request is refused with status 400 and the message "Not found or no memory.write access"
    When I delete their memory
    Then the request is refused with status 400 and the message "Not found or no memory.delete access"
    When I make a memory of the year 2021 holding a new photo of mine and their photo
    Then the memory holds my photo alone
    When I add their photo to the memory
    Then the outcomes are "no_permission"

  Scenario: A memory needs its type, its data and its date, and a memory's id is a UUID
    When I make a memory from {}
    Then the request is refused with status 400 and the messages "type must be one of the following values: on_this_day; data must be an object; memoryAt must be a Date instance; memoryAt should not be empty"
    When I make a memory from {"type":"on_this_day","data":{},"memoryAt":"2021-01-01"}
    Then the request is refused with status 400 and the messages "data.year must be a positive number; data.year must be an integer number"
    When I make a memory from {"type":"on_this_day","data":{"year":2021},"memoryAt":"yesterday"}
    Then the request is refused with status 400 and the message "memoryAt must be a date string"
    When I read the memory "not-a-uuid"
    Then the request is refused with status 400 and the messages "id must be a UUID"

  Scenario: Without credentials, no memory is read or made
    Given I use no credentials
    Then each operation on memories is refused with status 401 and the message "Authentication required"

@search
Feature: Search and the map
  A user finds their photos by file name, place, camera and the day they were taken; the search
  form suggests the places and cameras of their own photos; the explore page shows the cities five
  of their photos or more were taken in; the map marks each photo that has a position, where it was
  taken. A user finds only their own photos, never another user's, and only their own people.
  Smart search needs machine learning: a server without it says so, and one with it answers.

  Background:
    Given I use my API key

  Scenario: A photo is found by its file name, its place, its camera and its day, and by nothing else
    Given I have uploaded a new photo taken in Lisbon, under a name of its own
    When I search for a part of its name, in another case
    Then I find exactly that photo
    When I search for its name, its city, country, camera make and model, and the day it was taken
    Then I find exactly that photo, with where and with what it was taken
    When I search for its name with another camera
    Then I find nothing
    When I search for its name taken after the day it was
    Then I find nothing
    When I search for its name in another city
    Then I find nothing
    When I search for its name in another country
    Then I find nothing

  @new-user
  Scenario: A user does not find another user's photos
    Given I have uploaded a new photo taken in Lisbon, under a name of its own
    When a new user searches for its name
    Then they find nothing

  Scenario: The search form suggests the places and cameras of my photos
    Given I have uploaded a new photo taken in Lisbon, under a name of its own
    Then the search form suggests to me its country, its state in that country, its city in that state, its camera's make and that make's model, each once

  Scenario: Each city of my photos has a picture
    Given I have uploaded a new photo taken in Lisbon, under a name of its own
    When I ask for a picture of each city of my photos
    Then the photo's city is among them, each city once

  @new-user
  Scenario: A city five photos were taken in is one to explore
    Given a new user who has uploaded 5 new photos taken in Lisbon
    When they explore their photos
    Then the city of those photos is one to explore, shown with one of them

  Scenario: The map marks a photo where it was taken, and not what has no position
    Given I have uploaded a new photo taken in Lisbon and a new screenshot, which has no position
    When I ask for the markers of my map
    Then the photo is marked where it was taken, and the screenshot is not marked
    When I ask for the markers of my map of my favourites
    Then neither is marked

  @new-user
  Scenario: Another user's map does not mark my photos
    Given I have uploaded a new photo taken in Lisbon and a new screenshot, which has no position
    When a new user asks for the markers of their map
    Then neither is marked

  Scenario: The map is drawn in a light or a dark style, and in no other
    When I ask for the map's style "dark"
    Then it is a style to draw the map with
    When I ask for the map's style "blue"
    Then the request is refused with status 400 and the messages "theme must be one of the following values: light, dark"

  Scenario: A link's holder draws the map too
    Given I have shared an album
    And I use the key of that link
    When I ask for the map's style "light"
    Then it is a style to draw the map with

  Scenario: Smart search answers only where the server has machine learning
    When I search by meaning for "a sunset over the river"
    Then the search is refused as not enabled where the server has no smart search, and answers a page of photos where it has

  Scenario: A smart search needs words
    When I search by meaning for nothing
    Then the request is refused with status 400 and the messages "query should not be empty; query must be a string"

  @new-user
  Scenario: People are found by the start of their name or of a word of it, the hidden ones only when asked
    Given a new user who has made a person named "Zephyrine Quill"
    When they search for the person "zeph"
    Then that person is found
    When they search for the person "Quill"
    Then that person is found
    When they search for the person "phyr"
    Then that person is not found
    When they hide that person
    And they search for the person "zeph"
    Then that person is not found
    When they search for the person "zeph" among the hidden too
    Then that person is found

  @new-user
  Scenario: A user does not find another user's people
    Given a new user who has made a person named "Zephyrine Quill"
    When I search for the person "Zephyrine"
    Then that person is not found

  Scenario Outline: A search is refused what it cannot read
    When I <ask>
    Then the request is refused with status 400 and the <messages>

    Examples:
      | ask                                                    | messages                                                                                                   |
      | ask for suggestions of the kind "lens"                 | messages "type must be one of the following values: country, state, city, camera-make, camera-model"     |
      | search for a person without a name                     | messages "name should not be empty; name must be a string"                                                 |
      | ask for the markers of my map of photos taken after "soon" | message "fileCreatedAfter must be a date string"                                                       |

  Scenario: Without credentials, nothing is searched and no map is drawn
    Given I use no credentials
    Then each operation of search and the map is refused with status 401 and the message "Authentication required"

@albums
Feature: Albums
  A user files their photos into albums: an album made with photos holds them and counts them, and
  photos added later join it. A photo is in an album once, and only its owner's photos go in.

  Background:
    Given I use my API key

  Scenario: An album made of photos holds them and counts them
    Given I have uploaded 2 new photos
    When I make an album "Porto, May 2024" of those photos
    Then the album holds those 2 photos, counts them, and shows one of them as its thumbnail

  Scenario: Adding photos to an album tells what became of each, in order
    Given I have uploaded 2 new photos
    And I have made an album "Porto" of the first of those photos
    When I add both photos to the album
    Then the first is refused as a duplicate and the second is added
    And the album holds those 2 photos, counts them, and shows one of them as its thumbnail

  @second-user
  Scenario: Another user's photo cannot go into my album
    Given the other user has uploaded a new photo
    And I have made an empty album "Porto"
    When I add the other user's photo to the album
    Then it is refused for want of permission

  Scenario: My albums list the album I made, with its count
    Given I have uploaded 2 new photos
    And I have made an album "Porto, May 2024" of the first of those photos
    When I list my albums
    Then the list holds the album "Porto, May 2024", counting 1 asset

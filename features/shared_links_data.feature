@shared-links
Feature: Shared link data a client can rely on
  Clients show shared links without checking them: what the server says about a link, its album
  and its assets must hold together. These rules are judged on every link the user has, among
  them an album of two new photos and two links of the first of them, shared first so that each
  rule has something to judge on any server. A server may list an album without its assets (the
  reference does): such an album is read on its own, as a client does to show it.

  Background:
    Given I use my API key
    And I have shared 2 new photos in an album and the first of them in two links of its own
    And the shared links I have

  Scenario: An album's asset count matches the assets it holds
    Then every album counts exactly the assets it holds

  Scenario: An album's thumbnail is one of its assets
    Then every album with assets has one of them as its thumbnail, and an empty one has none

  Scenario: An album's start and end dates bound its assets
    Then every album with assets starts at its earliest asset and ends at its latest, and an empty one has no dates

  Scenario: The owner is the same wherever it appears
    Then each link's owner also owns its album and every one of its assets, but those its album's users added

  Scenario: Checksums are base64-encoded SHA-1 digests
    Then every asset's checksum is a base64-encoded SHA-1 digest

  Scenario: Every link has a key of its own
    Then no two links have the same key or the same id

  Scenario: Copies of the same asset agree
    Then every asset that appears more than once appears the same each time

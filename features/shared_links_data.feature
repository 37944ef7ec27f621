@shared-links
Feature: Shared link data a client can rely on
  Clients show shared links without checking them: what the server says about a link, its album
  and its assets must hold together. These rules are judged on the links the user already has
  (a user without links has nothing to judge, and these scenarios are then skipped).

  Background:
    Given I use my API key
    And the shared links I have

  Scenario: An album's asset count matches the assets it lists
    Then every album that lists its assets counts exactly those assets

  Scenario: An album's thumbnail is one of its assets
    Then every album that lists its assets has one of them as its thumbnail

  Scenario: An album's start and end dates bound its assets
    Then every album that lists its assets starts at its earliest asset and ends at its latest

  Scenario: The owner is the same wherever it appears
    Then each link's owner also owns its album and every one of its assets

  Scenario: Checksums are base64-encoded SHA-1 digests
    Then every asset's checksum is a base64-encoded SHA-1 digest

  Scenario: Every link has a key of its own
    Then no two links have the same key or the same id

  Scenario: Copies of the same asset agree
    Then every asset that appears more than once appears the same each time

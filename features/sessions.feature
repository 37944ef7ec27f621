@sessions
Feature: Sessions and API keys
  A user logs in for a session, and makes API keys for their scripts; a new key works at once.

  Scenario: An API key made in a session works at once
    Given I use a session of mine as a bearer token
    When I make an API key named "CI"
    Then the new key, named "CI", lists my shared links

@oauth
Feature: Logging in with OAuth, turned off
  A server may let its users log in with an OAuth provider; out of the box it does not. Then
  asking where to log in, finishing a login and tying an account to a provider are refused, each
  after the request's own fields are judged; untying an account answers the user as they are.
  The mobile app, sent back from the provider, is redirected to itself with what the provider
  said.

  Background:
    Given the server has OAuth turned off

  Scenario: Where to log in with OAuth: refused, once the redirect URI is judged
    When I ask where to log in with OAuth, saying no redirect URI
    Then the request is refused with status 400 and the messages:
      | redirectUri must be a string    |
      | redirectUri should not be empty |
    When I ask where to log in with OAuth, with the redirect URI "app.immich:/"
    Then the request is refused with status 400 and the message "OAuth is not enabled"

  Scenario: Finishing an OAuth login: refused, once the URL is judged
    When I finish an OAuth login, saying no URL
    Then the request is refused with status 400 and the messages:
      | url must be a string    |
      | url should not be empty |
    When I finish an OAuth login with the URL "app.immich:/?code=abc&state=def"
    Then the request is refused with status 400 and the message "OAuth2 is not enabled"

  Scenario: Tying my account to OAuth: for users only, and refused
    Given I use no credentials
    When I tie my account to OAuth with the URL "app.immich:/?code=abc&state=def"
    Then the request is refused with status 401 and the message "Authentication required"
    Given I use my API key
    When I tie my account to OAuth, saying no URL
    Then the request is refused with status 400 and the messages:
      | url must be a string    |
      | url should not be empty |
    When I tie my account to OAuth with the URL "app.immich:/?code=abc&state=def"
    Then the request is refused with status 400 and the message "OAuth2 is not enabled"

  @new-user
  Scenario: Untying an account from OAuth answers the user as they are
    Given a new user
    When they untie their account from OAuth
    Then the answer is them as they read themselves, with no OAuth id

  Scenario: The mobile app is sent back to itself with what the provider said
    When the mobile app comes back from OAuth with "code=abc&state=def"
    Then it is redirected to "app.immich:/?code=abc&state=def"
    When the mobile app comes back from OAuth with nothing
    Then it is redirected to "app.immich:/?"

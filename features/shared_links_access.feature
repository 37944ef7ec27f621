@shared-links
Feature: Who may list shared links
  Listing shared links is for the user who owns them, signed in with their API key or a session's
  access token (a bearer token). The key of a shared link opens that link, not the owner's list of links.

  Scenario Outline: Listing without valid credentials is refused
    Given I use <credentials>
    When I list my shared links
    Then the request is refused with status 401 and the message "<message>"

    Examples:
      | credentials                          | message                 |
      | no credentials                       | Authentication required |
      | the API key "not-a-real-key"         | Invalid API key         |
      | the bearer token "not-a-real-token"  | Invalid user token      |
      | the shared link key "no-such-link"   | Invalid share key       |

  Scenario: A session from logging in works as a bearer token
    Given I use a session of mine as a bearer token
    When I list my shared links
    Then the request succeeds

  Scenario: An API key is no bearer token
    Given I use my API key as a bearer token
    When I list my shared links
    Then the request is refused with status 401 and the message "Invalid user token"

  Scenario: A shared link's key cannot list links
    Given I have shared an album that allows uploads
    And I use the key of that link
    When I list my shared links
    Then the request is refused with status 403 and the message "Forbidden resource"

  Scenario: A shared link's key cannot list links, even with my API key beside it
    Given I have shared an album that allows uploads
    And I use the key of that link
    And I also send my API key
    When I list my shared links
    Then the request is refused with status 403 and the message "Forbidden resource"

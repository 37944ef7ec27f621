@upload
Feature: Who may upload
  An upload needs credentials: a user's API key (in the x-api-key header), a session's access token
  (as a bearer token, from logging in), or the key of a shared link whose owner lets its holders
  upload. The asset then belongs to the user,
  or to the link's owner. Credentials are checked before anything else of the request.

  Scenario Outline: Uploads without valid credentials are refused
    Given I use <credentials>
    When I upload a new photo "IMG_4021.JPG"
    Then the request is refused with status 401 and the message "<message>"

    Examples:
      | credentials                          | message                 |
      | no credentials                       | Authentication required |
      | the API key "not-a-real-key"         | Invalid API key         |
      | the bearer token "not-a-real-token"  | Invalid user token      |
      | the shared link key "no-such-link"   | Invalid share key       |

  Scenario: Without credentials, an upload that lacks a part is refused for want of credentials
    Given I use no credentials
    When I upload a new photo without the "deviceId" part
    Then the request is refused with status 401 and the message "Authentication required"

  Scenario: Without credentials, a body that is not multipart is refused for want of credentials
    Given I use no credentials
    When I send an upload whose body is JSON instead of multipart
    Then the request is refused with status 401 and the message "Authentication required"

  Scenario: With an unknown API key, a date the server cannot read is refused for the key
    Given I use the API key "not-a-real-key"
    When I upload a new photo "IMG_4021.JPG" with "fileCreatedAt" set to "yesterday"
    Then the request is refused with status 401 and the message "Invalid API key"

  Scenario Outline: Of several credentials, the first present is the one checked
    The order is: a shared link's key, then a bearer token, then the x-api-key header.
    Given I use <credentials>
    When I upload a new photo "IMG_4021.JPG"
    Then the request is refused with status 401 and the message "<message>"

    Examples:
      | credentials                                                                   | message            |
      | the bearer token "not-a-real-token" beside my API key                         | Invalid user token |
      | the shared link key "no-such-link" beside my API key as a bearer token        | Invalid share key  |

  Scenario: A link that does not let its holder upload does not tell which files its owner has
    A checksum header sent through such a link is not answered "duplicate": that would tell the
    link's holder which files the owner keeps.
    Given I have uploaded a new photo "IMG_4021.JPG"
    And I have shared an album that does not allow uploads
    And I use the key of that link
    When I announce that photo's checksum in base64 and send no file
    Then the request is refused with status 401 and the message "Unauthorized"

  Scenario: A session from logging in works as a bearer token
    Given I use a session of mine as a bearer token
    When I upload a new photo "IMG_4021.JPG"
    Then the upload is accepted as new

  Scenario: An API key is no bearer token
    A bearer token is a session's access token; an API key sent as one is refused, as a real
    server refuses it.
    Given I use my API key as a bearer token
    When I upload a new photo "IMG_4021.JPG"
    Then the request is refused with status 401 and the message "Invalid user token"

  Scenario: A link that allows uploads lets its holder upload for the link's owner
    Given I have shared an album that allows uploads
    And I use the key of that link
    When I upload a new photo "IMG_4021.JPG"
    Then the upload is accepted as new
    When I use my API key
    And I upload the same photo again
    Then the upload is recognised as a duplicate of the first

  Scenario: What is uploaded through a link is not added to the link
    Given I have shared an album that allows uploads
    And I use the key of that link
    When I upload a new photo "IMG_4021.JPG"
    Then the upload is accepted as new
    When I use my API key
    And I list my shared links
    Then that link still holds no assets

  Scenario Outline: Links that do not let their holder upload
    Given I have shared an album <which>
    And I use the key of that link
    When I upload a new photo "IMG_4021.JPG"
    Then the request is refused with status 401 and the message "<message>"

    Examples:
      | which                                   | message           |
      | that does not allow uploads             | Unauthorized      |
      | that allows uploads but has expired     | Invalid share key |

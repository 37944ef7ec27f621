@downloads
Feature: Downloading what a shared link shares
  A link's holder takes the originals of what it shares, as the web app's share page does: it asks
  which archives the album makes, then downloads each archive, or one photo at a time. A link that
  allows downloads gives exactly its photos, byte for byte, and nothing else; one that does not
  gives nothing, through any route; a link with a password needs the token its password gives.

  Background:
    Given I use my API key
    And I have uploaded 3 new photos

  Scenario: A link that allows downloads gives an archive of exactly its photos, byte for byte
    Given I have shared an album of those photos that allows downloads
    When its holder asks which archives the album makes
    Then the archives hold exactly those photos, with the sizes of their files
    When its holder downloads each archive
    Then the archives hold exactly the files I uploaded, byte for byte

  Scenario: A link that allows downloads gives each photo on its own, byte for byte
    Given I have shared an album of those photos that allows downloads
    Then its holder downloads each of those photos on its own, byte for byte

  Scenario: A link gives only its own photos
    Given I have shared an album of the first of those photos that allows downloads
    When its holder asks which archives all of my photos make
    Then the request is refused with status 400 and the message "Not found or no asset.download access"
    When its holder asks for an archive of all of my photos
    Then the request is refused with status 400 and the message "Not found or no asset.download access"

  Scenario: A link that does not allow downloads gives nothing, through any route
    Given I have shared an album of those photos that does not allow downloads
    When its holder asks which archives the album makes
    Then the request is refused with status 400 and the message "Not found or no album.download access"
    When its holder asks which archives those photos make
    Then the request is refused with status 400 and the message "Not found or no asset.download access"
    When its holder asks for an archive of those photos
    Then the request is refused with status 400 and the message "Not found or no asset.download access"
    And its holder, asking for each of those photos on its own, is refused with status 400 and the message "Not found or no asset.download access"
    And its holder, asking for the original of each of those photos, gets none of their bytes

  Scenario: A link with a password gives its archive with the token its password gives
    Given I have shared an album of those photos with the password "sardines"
    When its holder asks for an archive of those photos
    Then the archive is refused with status 401 and the message "Invalid password", or is exactly the files I uploaded where the server checks a link's password only when the link is opened
    When its holder opens the link with the password "sardines" and keeps the token it gives
    And its holder asks for an archive of those photos with the token it got
    Then the archive holds exactly the files I uploaded, byte for byte

@shared-links
Feature: Opening a shared link as its holder
  Whoever holds a link's key opens it and sees what it shares. A link with a password opens only
  with it, and then gives a token that opens it again without the password. A link that hides
  metadata shows its photos without their file names, checksums, owner or EXIF. A link that keeps
  the originals back never sends one: asked for the original, it sends the thumbnail.

  Background:
    Given I use my API key
    And I have uploaded a new photo "IMG_4021.JPG"

  Scenario: A link opens with its key
    Given I have shared that photo on its own
    When its holder opens the link
    Then the link opens with that photo

  Scenario: A link with a password opens only with it, then with the token it gave
    Given I have shared that photo with the password "sardines"
    When its holder opens the link
    Then the request is refused with status 401 and the message "Invalid password"
    When its holder opens the link with the password "sardines"
    Then the link opens with that photo and a token that opens it again
    When its holder opens the link with the token it got
    Then the link opens with that photo

  Scenario: A link that hides metadata shows only what a page needs
    Given I have shared that photo hiding its metadata
    When its holder opens the link
    Then the link opens with that photo
    And the photo shows nothing but what a page needs to show it

  @pictures
  Scenario: A link that keeps the originals back sends the thumbnail instead
    Given I have shared that photo keeping its original back
    Then its holder, asking for the original of that photo, gets a WEBP picture and not the bytes I sent

@upload @duplicates
Feature: Recognising duplicates
  A user's library holds each file once. The server recognises a file it already has for the user
  by its content (the SHA-1 of its bytes), whatever its name or metadata, and answers with the
  existing asset's id instead of storing it again. A client may also announce the checksum in a
  header before sending the file, and learn at once that the server has it.

  Background:
    Given I use my API key

  Scenario: The same file uploaded twice is stored once
    Given I have uploaded a new photo "IMG_4021.JPG"
    When I upload the same photo again
    Then the upload is recognised as a duplicate of the first

  Scenario: A duplicate is found by content, whatever its name and metadata
    Given I have uploaded a new photo "IMG_4021.JPG"
    When I upload the same bytes again as "IMG_4021 (1).JPG" from another device
    Then the upload is recognised as a duplicate of the first

  Scenario Outline: The checksum header finds a duplicate before the file is sent
    Given I have uploaded a new photo "IMG_4021.JPG"
    When I announce that photo's checksum in <encoding> and send no file
    Then the upload is recognised as a duplicate of the first

    Examples:
      | encoding |
      | base64   |
      | hex      |

  Scenario: A duplicate found by the checksum header stores nothing
    The server answers "duplicate" without reading the body, so the body must not be stored either:
    a client told "you already have this" does not expect a new asset to appear.
    Given I have uploaded a new photo "IMG_4021.JPG"
    And I have another new photo "IMG_4023.JPG" that the server has never seen
    When I upload the other photo, announcing the first photo's checksum
    Then the upload is recognised as a duplicate of the first
    When I upload the other photo again, without announcing a checksum
    Then the upload is accepted as new

  Scenario Outline: A checksum that matches nothing does not stop the upload
    When I upload a new photo "IMG_4021.JPG" announcing <checksum>
    Then the upload is accepted as new

    Examples:
      | checksum                          |
      | the checksum of other bytes       |
      | the checksum "not-a-checksum"     |

  @second-user
  Scenario: Each user's duplicates are their own
    Given I have uploaded a new photo "IMG_4021.JPG"
    When the other user uploads the same photo
    Then the upload is accepted as new
    When the other user uploads the same photo again
    Then the upload is recognised as a duplicate of the other user's

  Scenario: Identical uploads racing each other create one asset
    When I upload the same new photo "IMG_4021.JPG" 6 times at once
    Then exactly one of them is accepted as new and the others are duplicates of it

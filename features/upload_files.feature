@upload
Feature: What an upload keeps of the file
  A server keeps a file's name as it was sent, in any script, and judges its type by its
  extension. It reads when and where a photo was taken from the photo itself (a server may do so a
  while after the upload: the harness waits up to --settle). An empty file or a name with a path
  in it never makes it fail.

  Background:
    Given I use my API key

  Scenario: A photo's time and place come from its EXIF
    When I upload a new photo "IMG_4021.JPG"
    Then the upload is accepted as new
    And the photo, read on its own, was taken at "2023-06-14T19:42:07.000Z" in "Lisbon", "Portugal"

  Scenario Outline: A file name in any script is kept as it was sent
    When I upload a new photo "<name>"
    Then the upload is accepted as new
    And the new asset's "originalFileName" is "<name>"

    Examples:
      | name               |
      | Café au lait.jpg   |
      | 東京タワー.JPG     |
      | Ünïcödé 🌅.jpeg    |

  Scenario: A file is judged by its extension, whatever its bytes
    When I upload a new photo "IMG_0001.PNG" whose bytes are a JPEG's
    Then the upload is accepted as new
    And the new asset's "type" is "IMAGE"

  Scenario: An empty file is refused, or kept as empty, never a server error
    When I upload an empty photo "IMG_0002.JPG"
    Then the upload is refused with a 400, or kept with a size of 0 bytes

  Scenario: A file name with a path in it is refused, or kept without its path
    When I upload a new photo "../../IMG_0003.JPG"
    Then the upload is refused with a 400, or kept with a name without a path

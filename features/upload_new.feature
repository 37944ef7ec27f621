@upload
Feature: Uploading an asset
  A device uploads one photo or video at a time, with what it knows about the file: its id on the
  device, the device's id, and when the file was created and last modified. The server keeps the
  file for the user and answers with the id of the new asset.

  Background:
    Given I use my API key

  Scenario: A new photo is stored and gets a new id
    When I upload a new photo "IMG_4021.JPG"
    Then the upload is accepted as new
    And the answer's id is a UUID

  Scenario Outline: Photos and videos of every common kind are accepted
    When I upload a new file "<file name>"
    Then the upload is accepted as new

    Examples:
      | file name                      | kind                      |
      | IMG_4021.JPG                   | a JPEG photo              |
      | IMG_4022.HEIC                  | an iPhone HEIC photo      |
      | Screenshot_20240301-091500.png | a screenshot              |
      | DSC05678.ARW                   | a camera RAW file         |
      | VID_20240101_120000.mp4        | a video                   |
      | clip.MOV                       | a video, upper-case name  |

  Scenario: A live photo is uploaded as a still with its motion video
    When I upload a new live photo "IMG_4021.JPG" with its video "IMG_4021.MOV"
    Then the upload is accepted as new

  Scenario: A live photo's video is kept with the still, as a video of its own
    When I upload a new live photo "IMG_4021.JPG" with its video "IMG_4021.MOV"
    Then the upload is accepted as new
    And the still's live photo video is a VIDEO with the checksum of the video I sent

  Scenario: A photo is uploaded with its XMP sidecar
    When I upload a new photo "IMG_4021.JPG" with the sidecar "IMG_4021.JPG.xmp"
    Then the upload is accepted as new

  Scenario Outline: Optional details are accepted
    When I upload a new photo "IMG_4021.JPG" with "<part>" set to "<value>"
    Then the upload is accepted as new

    Examples:
      | part           | value                     |
      | fileCreatedAt  | 2024-05-30                |
      | fileModifiedAt | 2024-05-30T10:00:00+02:00 |
      | isFavorite     | true                      |
      | isArchived     | false                     |
      | isVisible      | true                      |
      | isOffline      | false                     |
      | duration       | 0:00:05.00000             |

  Scenario Outline: Optional details are kept as given
    When I upload a new photo "IMG_4021.JPG" with "<part>" set to "<value>"
    Then the upload is accepted as new
    And the new asset's "<field>" is "<kept>"

    Examples:
      | part          | value         | field         | kept                     |
      | isFavorite    | true          | isFavorite    | true                     |
      | isArchived    | true          | isArchived    | true                     |
      | isOffline     | true          | isOffline     | true                     |
      | duration      | 0:00:05.00000 | duration      | 0:00:05.00000            |

  Scenario Outline: A file that says nothing of when it was made keeps the dates sent
    When I upload a new photo "Screenshot_20240301-091500.png" with "fileCreatedAt" set to "2024-05-30"
    Then the upload is accepted as new
    And the new asset's "<field>" is "2024-05-30T00:00:00.000Z"

    Examples:
      | field         |
      | fileCreatedAt |
      | localDateTime |

  Scenario Outline: A photo's capture time replaces the date sent
    The reference reads the EXIF's DateTimeOriginal and OffsetTimeOriginal (19:42:07 at +01:00)
    after the upload: fileCreatedAt becomes that instant, localDateTime its wall clock.

    When I upload a new photo "IMG_4021.JPG" with "fileCreatedAt" set to "2024-05-30"
    Then the upload is accepted as new
    And the new asset's "<field>" becomes "<taken>"

    Examples:
      | field         | taken                    |
      | fileCreatedAt | 2023-06-14T19:42:07.000Z |
      | localDateTime | 2023-06-14T20:42:07.000Z |

  Scenario: Text parts the API does not know are ignored
    When I upload a new photo "IMG_4021.JPG" with "albumName" set to "Summer in Lisbon"
    Then the upload is accepted as new

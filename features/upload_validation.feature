@upload
Feature: Refusing incomplete or malformed uploads
  An upload that lacks what the server needs, or carries a value it cannot read, is refused with
  400 Bad Request and a message that names the problem, in the words client libraries match on.
  Problems of the text parts are reported together, as a list of messages in a fixed order; a
  problem with the files, or a date that cannot be read, is reported as one message.

  Background:
    Given I use my API key

  Scenario Outline: Every required text part must be there
    When I upload a new photo without the "<part>" part
    Then the upload is refused with status 400 and the messages "<first message>; <second message>"

    Examples:
      | part           | first message                         | second message                        |
      | deviceAssetId  | deviceAssetId must be a string        | deviceAssetId should not be empty     |
      | deviceId       | deviceId must be a string             | deviceId should not be empty          |
      | fileCreatedAt  | fileCreatedAt must be a Date instance | fileCreatedAt should not be empty     |
      | fileModifiedAt | fileModifiedAt must be a Date instance | fileModifiedAt should not be empty   |

  Scenario: The file must be there
    When I upload a new photo without the "assetData" part
    Then the upload is refused with status 400 and the message "File is required"

  Scenario Outline: Values the server cannot read are refused
    When I upload a new photo "IMG_4021.JPG" with "<part>" set to "<value>"
    Then the upload is refused with status 400 and the messages "<message>"

    Examples:
      | part           | value      | message                              |
      | deviceAssetId  |            | deviceAssetId should not be empty    |
      | deviceId       |            | deviceId should not be empty         |
      | isFavorite     | yes        | isFavorite must be a boolean value   |
      | isArchived     | 1          | isArchived must be a boolean value   |
      | isVisible      | TRUE       | isVisible must be a boolean value    |
      | isOffline      | no         | isOffline must be a boolean value    |

  Scenario Outline: A date the server cannot read is the one problem reported
    When I upload a new photo without the "deviceId" part and with "<part>" set to "<value>"
    Then the upload is refused with status 400 and the message "<part> must be a date string"

    Examples:
      | part           | value      |
      | fileCreatedAt  | yesterday  |
      | fileModifiedAt | 30/05/2024 |

  Scenario: Every problem of the text parts is reported at once, in order
    When I upload a new photo without the "deviceAssetId" and "deviceId" parts and with "isFavorite" set to "yes"
    Then the upload is refused with status 400 and the messages:
      | deviceAssetId must be a string     |
      | deviceAssetId should not be empty  |
      | deviceId must be a string          |
      | deviceId should not be empty       |
      | isFavorite must be a boolean value |

  Scenario: A sidecar alone is not an asset
    When I upload only the sidecar "IMG_4021.JPG.xmp"
    Then the upload is refused with status 400 and the message "Field(s) assetData should not be empty"

  Scenario Outline: Files of a type the server does not keep are refused
    When I upload a new photo whose "<part>" is the file "<file name>"
    Then the upload is refused with status 400 and the message "Unsupported file type <file name>"

    Examples:
      | part          | file name        | why                                  |
      | assetData     | notes.txt        | text is not a photo or a video       |
      | assetData     | IMG_4021         | a file name without an extension     |
      | livePhotoData | IMG_4021.HEIC    | a live photo's motion must be a video |
      | sidecarData   | IMG_4021.json    | a sidecar must be XMP                |

  Scenario Outline: Files under parts the upload does not have are refused
    When I upload a new photo "IMG_4021.JPG" with one more file "<file name>" as "<part>"
    Then the upload is refused with status 400 and the message "Unexpected field"

    Examples:
      | part      | file name    | why                        |
      | assetData | IMG_4023.JPG | a second asset             |
      | thumbnail | thumb.jpg    | a part the API does not know |

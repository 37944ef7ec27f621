@upload @pictures
Feature: The pictures of an uploaded photo
  A photo app shows a grid of thumbnails, a larger preview when a photo is opened, and the
  original when it is downloaded. A server makes a photo's thumbnail and preview after the upload
  (a real one seconds later: the harness waits up to --settle), and keeps the original exactly as
  it came.

  Background:
    Given I use my API key

  Scenario: The original comes back byte for byte
    Given I have uploaded a new photo "IMG_4021.JPG"
    Then the original of that photo is the very bytes I sent

  Scenario: The thumbnail is a WEBP picture whose smaller side is 250 pixels
    Given I have uploaded a new photo "IMG_4021.JPG"
    Then the thumbnail of that photo is a WEBP picture of the photo's shape whose smaller side is 250 pixels

  Scenario: The preview is a JPEG picture whose smaller side is 1440 pixels, never enlarged
    Given I have uploaded a new photo "IMG_4021.JPG"
    Then the preview of that photo is a JPEG picture of the photo's shape whose smaller side is 1440 pixels, or the photo's own if smaller

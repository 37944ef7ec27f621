@shared-links
Feature: Uploaded assets in shared links
  What a device uploads is what the people it is shared with see: the asset appears in a link made
  for it with the file name, the checksum and the details the device sent. A server may list an
  album link without its assets, as the reference does: the link is then read on its own. The
  camera its EXIF names is judged on the asset read on its own: a server may leave exifInfo out of
  the listing, and may read a file's metadata a while after the upload (the harness waits up to
  --settle for it).

  Background:
    Given I use my API key

  Scenario Outline: An uploaded photo appears in a link made for it, as it was uploaded
    Given I have uploaded a new photo "IMG_4021.JPG", taken with an iPhone 15 Pro
    And I have shared that photo <how>
    When I list my shared links
    Then the link holds that photo
    And the photo shows the file name "IMG_4021.JPG" and the checksum of the bytes I sent
    And the photo is an IMAGE of mine, with the device ids and modification date I sent
    And the photo, read on its own, names in its EXIF its camera, make "Apple" and model "iPhone 15 Pro", and the size of the file

    Examples:
      | how           |
      | on its own    |
      | in an album   |

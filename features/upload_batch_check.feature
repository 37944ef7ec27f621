@upload
Feature: The uploader's batch check
  Before uploading a folder, an uploader asks which of its files the server already has, by their
  SHA-1 (hex or base64): the server rejects those it has, as duplicates of the assets it names,
  and accepts the others, answering each in the order asked.

  Scenario: The server says which files of a batch it already has
    Given I use my API key
    And I have uploaded a new photo "IMG_4021.JPG"
    When I ask which of that photo and a new one the server already has
    Then the first is rejected as a duplicate of that photo, and the second accepted

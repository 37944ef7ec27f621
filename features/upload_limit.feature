@upload @upload-limit
Feature: The upload size limit a server declares
  A server may refuse uploads over a size it declares (the harness is told with
  --max-upload-bytes: the size of the whole request body). One byte over it, the upload is refused
  with a 413; at the limit, it is taken like any other.

  Background:
    Given I use my API key

  Scenario: An upload one byte over the limit is refused with a 413
    When I upload a new video whose request body is one byte over the declared upload limit
    Then the upload is refused with a 413

  Scenario: An upload exactly at the limit is stored
    When I upload a new video whose request body is exactly the declared upload limit
    Then the upload is accepted as new

@upload @robustness
Feature: Standing up to broken uploads
  Phones lose their connection in the middle of an upload, and careless clients send the wrong
  kind of body. The server refuses such a request with 400 Bad Request and goes on serving: one
  server of this API has been seen to die on a multipart body cut off before its end. These
  scenarios run after all the others, one at a time, and the bodies cut off before their end come
  last: a server that dies on one takes no other scenario with it, and the run says which it was.

  Background:
    Given I use my API key

  Scenario Outline: A broken body is refused and the server keeps answering
    When I send an upload whose body is <problem>
    Then the request is refused with status 400
    And the server still answers my next request

    Examples:
      | problem                                            |
      | multipart without a boundary in its Content-Type   |
      | empty                                              |

  Scenario: A body that is not multipart is refused for want of a file
    When I send an upload whose body is JSON instead of multipart
    Then the request is refused with status 400 and the message "File is required"
    And the server still answers my next request

  Scenario: A connection dropped in the middle of the file does not hurt the server
    When I start an upload and drop the connection in the middle of the file
    Then the server still answers my next request
    And a new upload is accepted as new

  Scenario Outline: A body cut off before its end is refused and the server keeps answering
    When I send an upload whose body is <problem>
    Then the request is refused with status 400
    And the server still answers my next request

    Examples:
      | problem                                            |
      | multipart whose closing boundary is missing        |
      | multipart cut off in the middle of the file        |

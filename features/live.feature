@live @second-user
Feature: Live events
  A photo app keeps a connection open to the server's live events (socket.io, at /api/socket.io/)
  and shows an upload the moment the server says it is ready: on_upload_success, with the asset.
  The server tells the owner's connections, and no one else's: another user must not learn of a
  photo that is not theirs. This judges the events a connection is sent, not only that it opens; a
  target without the live events fails it, and is checked without it with --tags 'not @live'.

  Scenario: An upload is told to its owner's connection and to no other user's
    Given I am connected to the live events
    And the other user is connected to the live events
    When I upload a new photo to show
    Then my connection is told that photo is uploaded, with the photo
    When the other user uploads a new photo to show
    Then their connection is told of their photo and was never told of mine

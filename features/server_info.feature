@server-info
Feature: What the server says about itself
  Before anything else, a client asks whether the server is up, which version it runs and which
  files an upload takes; none of it needs credentials.

  Scenario: The server answers a ping
    When I ask the server for "/server-info/ping" without credentials
    Then it answers pong

  Scenario: The server names its version
    When I ask the server for "/server-info/version" without credentials
    Then it names its version in three numbers

  Scenario: The server names the files an upload takes
    When I ask the server for "/server-info/media-types" without credentials
    Then the images it takes include ".jpg, .heic, .dng", the videos ".mp4, .mov" and the sidecars ".xmp"

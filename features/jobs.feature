@jobs
Feature: The server's work
  An admin sees the queues of the server's work, as the web app's job page shows them, and pauses,
  resumes and starts them; an owner has the pictures of their photo made again. The file report
  of the repair page compares the server's media folder with its records, and names only the
  server's own files. A user who is not an admin does none of it. A queue a scenario pauses it
  resumes, whatever happens.

  Background:
    Given I use my API key

  Scenario: An admin sees every queue of the server's work
    When an admin asks for the queues of the server's work
    Then every queue of the job page is there, with its jobs counted by state and whether it runs or is paused

  @serial
  Scenario: Paused, the picture queue holds a new photo's pictures until it is resumed
    Given an admin has paused the queue "thumbnailGeneration"
    When I upload a new photo "IMG_4021.JPG"
    Then the upload is accepted as new
    And the queue "thumbnailGeneration" is paused, holding at least one job
    And that photo has no thumbnail yet
    When an admin resumes the queue "thumbnailGeneration"
    Then the queue "thumbnailGeneration" is not paused
    And the thumbnail of that photo is a WEBP picture of the photo's shape whose smaller side is 250 pixels, or the photo's own if smaller

  Scenario Outline: A command the queues do not take is refused
    When an admin sends the queue "<queue>" the command <body>
    Then the request is refused with status 400 and the messages "<messages>"

    Examples:
      | queue    | body                                | messages                                                                                                                                                                                                                                   |
      | nightly  | {"command":"start"}                 | id must be one of the following values: thumbnailGeneration, metadataExtraction, videoConversion, faceDetection, facialRecognition, smartSearch, duplicateDetection, backgroundTask, storageTemplateMigration, migration, search, sidecar, library, notifications |
      | library  | {"command":"restart"}               | command must be one of the following values: start, pause, resume, empty, clear-failed                                                                                                                                                      |
      | library  | {}                                  | command must be one of the following values: start, pause, resume, empty, clear-failed; command should not be empty                                                                                                                        |
      | library  | {"command":"pause","force":"maybe"} | force must be a boolean value                                                                                                                                                                                                              |

  Scenario Outline: Some queues are no one's to start
    When an admin sends the queue "<queue>" the command {"command":"start"}
    Then the request is refused with status 400 and the message "Invalid job name: <queue>"

    Examples:
      | queue          |
      | search         |
      | backgroundTask |
      | notifications  |

  Scenario: The owner of a photo has its pictures made again
    Given I have uploaded a new photo "IMG_4021.JPG"
    When I ask for the pictures of that photo to be made again
    Then it is taken, with no answer
    And the thumbnail of that photo is a WEBP picture of the photo's shape whose smaller side is 250 pixels, or the photo's own if smaller

  @second-user
  Scenario: No one else has the pictures of a photo made again
    Given I have uploaded a new photo "IMG_4021.JPG"
    When the other user asks for the pictures of that photo to be made again
    Then the request is refused with status 400 and the message "Not found or no asset.update access"

  Scenario: A job on photos is one the server knows
    When I ask for the job "reindex" on no photo
    Then the request is refused with status 400 and the messages "name must be one of the following values: regenerate-thumbnail, refresh-metadata, transcode-video"
    When I ask for the job "transcode-video" on no photo
    Then it is taken, with no answer

  Scenario: The reverse geocoder names the file of places it imported, and when
    When an admin asks for the state of the reverse geocoder
    Then it names the file of places it imported, and when

  Scenario: The file report names no file of a photo the server holds whole
    Given I have uploaded a new photo "IMG_4021.JPG"
    And the thumbnail of that photo is a WEBP picture of the photo's shape whose smaller side is 250 pixels, or the photo's own if smaller
    When an admin asks for the file report
    Then it names no file of that photo, as missing or as one no record names

  Scenario: The file report reads and fixes only the server's own files
    When an admin asks for the checksums of the files ["/etc/passwd"]
    Then the request is refused with status 400 and the message "Could not get the checksum of /etc/passwd because the file isn't accessible by Immich"
    When an admin asks for the checksums of the files [7]
    Then the request is refused with status 400 and the messages "each value in filenames must be a string"
    When an admin has a photo's original pointed at the file "/etc/passwd"
    Then the request is refused with status 400 and the message "Could not fix item 00000000-0000-4000-8000-000000000000 with path /etc/passwd because the file isn't accessible by Immich"

  @new-user
  Scenario Outline: A user who is not an admin neither reads nor commands the server's work
    Given a new user who is not an admin
    When they <try>
    Then the request is refused with status 403 and the message "Forbidden resource"

    Examples:
      | try                                     |
      | read the queues of the server's work    |
      | pause a queue                           |
      | read the file report                    |
      | ask for the checksums of files          |
      | fix the file report                     |
      | read the state of the reverse geocoder  |

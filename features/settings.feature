@settings @serial
Feature: The server and its settings
  Before it shows a page, the web app asks the server, without credentials, how it is set up, what
  it offers and how it looks; a signed-in user sees how full the server's disk is. An admin reads
  and changes the server's settings, which stick and show where they apply, reads the defaults and
  the storage template's options, sees what each user stores, and records that they were shown
  around; a user who is not an admin does none of it. What the harness changes of the settings it
  sets back.

  Background:
    Given I use my API key

  Scenario: What the web app is told before a page agrees with the server's settings
    When the web app asks, without credentials, how the server is set up, what it offers and how it looks
    Then what it is told agrees with the settings an admin reads

  Scenario: A user sees how full the server's disk is
    When I ask how full the server's disk is
    Then the disk's use and free space fit in its size, and the part used is the use over the size

  Scenario: A link's holder is not told how full the server's disk is
    Given I have shared an album
    And I use the key of that link
    When I ask how full the server's disk is
    Then the request is refused with status 403 and the message "Forbidden resource"

  @new-user
  Scenario: An admin sees what each user stores
    Given a new user who has uploaded a photo of their own
    When an admin asks what each user stores
    Then that user is counted with 1 photo, no video and the photo's bytes, and the totals are everyone's

  Scenario: An admin changes a setting, it sticks, and the web app shows it
    When an admin changes the login page message and the theme's CSS
    Then the settings the admin gets back hold the new message and CSS
    And the settings, read again, hold the new message and CSS
    And the web app, asking without credentials, shows the new message on the login page and the new CSS on its pages

  Scenario: A setting the server cannot take is refused, and changes nothing
    When an admin sets the quality of converted videos (ffmpeg.crf) to 52
    Then the request is refused with status 400 and the messages "ffmpeg.crf must not be greater than 51"
    And the quality of converted videos, read again, is as it was

  Scenario: The defaults hold every setting, and the storage template starts as one of its presets
    When an admin reads the default settings
    Then they hold every setting the server's settings hold
    When an admin reads the options of the storage template
    Then the default storage template is one of its presets

  Scenario: An admin records whether they were shown around, and the web app sees it
    When an admin records the opposite of whether they were shown around
    Then it is recorded, as the admin and the web app read it

  Scenario: Whether the admin was shown around is a yes or a no
    When an admin records that they were shown around as "yes"
    Then the request is refused with status 400 and the messages "isOnboarded must be a boolean value"

  @new-user
  Scenario Outline: A user who is not an admin neither reads nor changes the server's settings
    Given a new user who is not an admin
    When they <try>
    Then the request is refused with status 403 and the message "Forbidden resource"

    Examples:
      | try                                                 |
      | read the server's settings                          |
      | change the login page message                       |
      | read the default settings                           |
      | read the options of the storage template            |
      | ask what each user stores                           |
      | ask whether the admin was shown around              |
      | record that the admin was shown around, or was not  |

  Scenario: Without credentials, only what the web app needs before a page is told
    Given I use no credentials
    Then each of the server's settings and figures is refused with status 401 and the message "Authentication required"

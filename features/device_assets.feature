@device-assets
Feature: What a device has backed up
  A phone that backs up its photos asks which of them the server holds already, by the ids the
  phone gave them: only the caller's photos from that device count, those in the trash too.

  @new-user
  Scenario: A device's photos are known by their device ids, in the trash too, and only to their owner
    Given a new user who has uploaded two photos from one device
    Then the server lists the device ids of both as that device's
    And the server says that it holds one of those two and not a third
    When they move one of the photos to the trash
    Then the server lists the device ids of both as that device's
    And another device has nothing backed up
    And I have nothing backed up from that device

  Scenario Outline: Which photos a device holds is asked with its id and at least one photo's
    Given I use my API key
    When I ask which photos the server holds of <what>
    Then the request is refused with status 400 and the messages "<messages>"

    Examples:
      | what                              | messages                                                                                                                                |
      | no device and no photo            | each value in deviceAssetIds should not be empty; each value in deviceAssetIds must be a string; deviceAssetIds should not be empty; deviceId should not be empty |
      | an empty device and an empty list | deviceAssetIds should not be empty; deviceId should not be empty                                                                        |

  Scenario: Without credentials, no device's photos are listed
    Given I use no credentials
    When I ask which photos the server holds of a device
    Then the request is refused with status 401 and the message "Authentication required"
    When I list the photos of a device
    Then the request is refused with status 401 and the message "Authentication required"

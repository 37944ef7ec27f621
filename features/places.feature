@places
Feature: Places by name
  The search form finds a place as its user types its name: the places whose name, or whose region,
  is like the words typed, the most alike first, each with where it lies.

  Background:
    Given I use my API key

  Scenario Outline: A city is found by its name, and lies where it is
    When I look for places named "<name>"
    Then the first place found is "<city>", within a tenth of a degree of latitude <latitude> and longitude <longitude>

    Examples:
      | name   | city   | latitude | longitude |
      | Lisbon | Lisbon | 38.72    | -9.14     |
      | Berlin | Berlin | 52.52    | 13.41     |

  Scenario Outline: A place is looked for by one name, which is not empty
    When I look for places <how>
    Then the request is refused with status 400 and the messages "<messages>"

    Examples:
      | how                           | messages                                      |
      | without a name                | name should not be empty; name must be a string |
      | named ""                      | name should not be empty                      |
      | named "Lisbon" and "Berlin"   | name must be a string                         |

  Scenario: Without credentials, no place is looked for
    Given I use no credentials
    When I look for places named "Lisbon"
    Then the request is refused with status 401 and the message "Authentication required"

@people
Feature: The people of a library
  Facial recognition finds the people in a user's photos; the user names them, dates their birth
  and hides those they would rather not see, one at a time or several at once. A person is their
  user's alone: no one else reads or changes them. A person made by hand, before any face of
  theirs is seen, has no picture and is in no photo, and the library lists only the people it has
  seen in a photo. No operation deletes a person: the harness makes people only as a user it makes
  for the scenario, and they go with that user.

  Background:
    Given I use my API key

  @new-user
  Scenario: A person is made with a name and a birth date, and read back as made
    Given a new user with no people yet
    When they make a person named "Zephyrine Quill", born on 1990-05-01
    Then the person is made as asked: named "Zephyrine Quill", born on 1990-05-01, not hidden
    And that person, read again, is named "Zephyrine Quill", born on 1990-05-01, not hidden

  @new-user
  Scenario: A person is renamed, dated and hidden, and it sticks
    Given a new user who has made a person named "Ada Lovelace"
    When they rename that person "Ada King", date their birth 1815-12-10 and hide them
    Then that person, read again, is named "Ada King", born on 1815-12-10, hidden
    When they clear that person's birth date and show them again
    Then that person, read again, is named "Ada King", with no birth date, not hidden

  @new-user
  Scenario: Several people are changed at once, each with its own outcome
    Given a new user who has made people named "Ada Lovelace" and "Charles Babbage"
    When they rename both, and someone who is no one, at once
    Then both are renamed, and the one who is no one is not
    And each person, read again, has their new name

  @new-user
  Scenario: A birth date to come, or a hidden flag that is no yes or no, is refused and changes nothing
    Given a new user who has made a person named "Ada Lovelace"
    When they date that person's birth 2990-01-01
    Then the request is refused with status 400 and the messages "Birth date cannot be in the future"
    When they hide that person with "maybe"
    Then the request is refused with status 400 and the messages "isHidden must be a boolean value"
    And that person, read again, is named "Ada Lovelace", with no birth date, not hidden

  @new-user
  Scenario: A person no face was seen of has no picture, is in no photo, and is not listed
    Given a new user who has made a person named "Ada Lovelace"
    Then that person is seen in no photo, and counted in none
    When they ask for that person's picture
    Then the request is refused with status 404 and the message "Not Found"
    And their library lists no people, hidden or not

  Scenario: My library lists the people seen in my photos, the hidden ones only when asked
    When I list the people of my library
    Then no one listed is hidden, and the counts hold everyone listed
    And each of the first people listed is seen in photos of mine that show them, and has a picture
    When I list the people of my library with the hidden ones
    Then the hidden ones are listed too, and everyone listed before

  @new-user
  Scenario Outline: No one but its user reads or changes a person
    Given a new user who has made a person named "Ada Lovelace"
    When I <try> that person
    Then the request is refused with status 400 and the message "Not found or no person.<access> access"
    And that person, read again, is named "Ada Lovelace", with no birth date, not hidden

    Examples:
      | try                    | access |
      | read                   | read   |
      | rename                 | write  |
      | ask for the photos of  | read   |
      | count the photos of    | read   |
      | ask for the picture of | read   |

  @new-user
  Scenario: Changing several people at once does not reach another user's
    Given a new user who has made a person named "Ada Lovelace"
    When I rename that person among others at once
    Then that person is not renamed
    And that person, read again, is named "Ada Lovelace", with no birth date, not hidden

  Scenario: A person is named by a UUID
    When I read the person "not-a-uuid"
    Then the request is refused with status 400 and the messages "id must be a UUID"

  Scenario: Without credentials, no one's people are listed, made, read or changed
    Given I use no credentials
    Then each operation on people is refused with status 401 and the message "Authentication required"

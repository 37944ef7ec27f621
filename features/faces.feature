@faces
Feature: Faces, and people merged or given faces
  Facial recognition finds faces in a user's photos and says whose each is; the user gives a face,
  or the faces of a person in a photo, to another of their people, and merges people who are one.
  A face is its photo owner's to move, and a person their user's alone. Without machine learning
  (off on the reference's test server) no face is found in a new photo: the scenarios that move
  faces judge what a server does when there are none to move, and the faces of the given user's
  photos are only read. People are made only as users the harness makes, and go with them.

  Background:
    Given I use my API key

  Scenario: The faces of my photos name the people seen in them
    When I list the people of my library
    Then each face of the photos of the first people listed lies within its picture, and one of them is that person's

  @new-user
  Scenario: No face is found in a new photo, and no one else may ask for its faces
    Given a new user who has uploaded a photo
    Then that photo shows no face
    When I ask for the faces of that photo
    Then the request is refused with status 400 and the message "Not found or no asset.read access"

  @new-user
  Scenario: A person merged into another is gone, and leaves it the name and birth date it lacked
    Given a new user who has made an unnamed person and a person named "Ada Lovelace", born on 1815-12-10
    When they merge "Ada Lovelace" and someone who is no one into the unnamed person
    Then "Ada Lovelace" is merged, and the one who is no one is not, for want of permission
    And that person, read again, is named "Ada Lovelace", born on 1815-12-10, not hidden
    And "Ada Lovelace" is no longer there

  @new-user
  Scenario: The faces of people in a photo where none is found move nowhere
    Given a new user who has uploaded a photo and made people named "Ada Lovelace" and "Charles Babbage"
    When they give "Ada Lovelace" the faces of "Charles Babbage" in that photo
    Then the answer names "Ada Lovelace" once
    And "Ada Lovelace" and "Charles Babbage" are seen in no photo
    When they give "Ada Lovelace" a face that is no one's
    Then the request is refused with status 400 and the message "Not found or no person.create access"

  @new-user
  Scenario Outline: No one but its user merges a person or gives them faces
    Given a new user who has made a person named "Ada Lovelace"
    When I <try> that person
    Then the request is refused with status 400 and the message "Not found or no person.write access"
    And that person, read again, is named "Ada Lovelace", with no birth date, not hidden

    Examples:
      | try                                               |
      | merge someone who is no one into                  |
      | give the faces of someone who is no one to        |
      | give a face that is no one's to                   |

  Scenario Outline: Faces and people are named by UUIDs
    When I <ask> "<value>"
    Then the request is refused with status 400 and the messages "<messages>"

    Examples:
      | ask                                                      | value      | messages                         |
      | ask for the faces of the photo                           | not-a-uuid | id must be a UUID                |
      | merge into someone who is no one the person              | not-a-uuid | each value in ids must be a UUID |
      | give someone who is no one the face                      | not-a-uuid | id must be a UUID                |
      | give someone who is no one the faces of no one in photo  | not-a-uuid | data.0.assetId must be a UUID    |

  Scenario: Without credentials, no face is read or moved and no one is merged
    Given I use no credentials
    Then each operation on faces is refused with status 401 and the message "Authentication required"

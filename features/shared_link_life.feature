@shared-links
Feature: A shared link's life
  A link is made, edited and deleted by its owner. Once deleted, its key opens nothing and the
  owner's list no longer holds it. (A server may answer an edit with the link's fields only; the
  harness reads the link again to judge it.)

  Background:
    Given I use my API key

  Scenario: A link is edited, then deleted
    Given I have uploaded a new photo "IMG_4021.JPG"
    And I have shared that photo on its own
    When I change the link's description to "For Grandma" and its expiry to next year
    Then the link shows the description "For Grandma" and an expiry next year
    When I delete the link
    Then the link's key opens nothing any more
    And my list no longer holds the link

  Scenario: Photos are added to a link and taken out again
    Given I have uploaded 2 new photos
    And I have shared the first of those photos on its own
    When I add the second of those photos to the link
    Then each photo is told it was added, and the link holds both
    When I take the first of those photos out of the link
    Then each photo is told it was taken out, and the link holds only the second

@users
Feature: Users as others see them
  A page shows each user with their portrait, or their initials where they have none: it asks for
  the portrait and must be told plainly that there is none.

  Background:
    Given I use my API key

  @new-user
  Scenario: A user without a portrait has no profile image
    Given a new user who has no shared links
    When I ask for that user's profile image
    Then the request is refused with status 404 and the message "User does not have a profile image"

  Scenario: No one's profile image is not found
    When I ask for the profile image of the user "00000000-0000-4000-8000-000000000000"
    Then the request is refused with status 400 and the message "User not found"

"""The travel domain's own tools, grouped by area (the kit adds the helpdesk, hand-offs and codes)."""

from statebox.domains.travel.tools.bookings import (
    add_checked_bags,
    correct_passenger_name,
    find_booking,
    get_booking,
    request_special_assistance,
    update_passport,
    verify_card,
)
from statebox.domains.travel.tools.flights import (
    change_flight,
    get_flight_status,
    join_waitlist,
    list_weather_waivers,
    resolve_schedule_change,
    search_flights,
)
from statebox.domains.travel.tools.money import (
    award_compensation,
    cancel_flights,
    cancel_hotel_stay,
    issue_refund,
    issue_travel_credit,
)
from statebox.domains.travel.tools.seats import assign_seat
from statebox.domains.travel.tools.travellers import (
    credit_missing_points,
    find_traveller,
    get_points_history,
    get_traveller,
    list_travel_credits,
    list_traveller_bookings,
    reinstate_credit,
)
from statebox.tools import Tool

ALL_TOOLS: list[Tool] = [
    # accounts, credits and points
    find_traveller, get_traveller, list_traveller_bookings, list_travel_credits, reinstate_credit,
    get_points_history, credit_missing_points,
    # bookings and passengers
    find_booking, get_booking, verify_card, correct_passenger_name, update_passport, add_checked_bags,
    request_special_assistance, assign_seat,
    # flights
    get_flight_status, search_flights, list_weather_waivers, change_flight, join_waitlist, resolve_schedule_change,
    # cancellations and money
    cancel_flights, cancel_hotel_stay, issue_refund, issue_travel_credit, award_compensation,
]

__all__ = ["ALL_TOOLS"]

"""What the table shows with light and sound: an LED per seat (whose turn it is, who
lost the slap, a stuck pad) and an optional buzzer, through gpiozero's `LED` and
`Buzzer`. Blinking and beeping run on gpiozero's own background threads, so no call
here blocks.

What does not live here: reading the pads (`device.pads`), deciding whose turn it is
(the engine).
"""
from __future__ import annotations

from typing import Any, Mapping

from device.config import Config


class IndicatorError(RuntimeError):
    """An LED or buzzer pin that cannot be opened (says which and why)."""


class SeatLights:
    """LEDs by seat, and the buzzer. Commands:

    * `show_turn(seat)` — that seat's LED steady on, the others off (None: all off);
    * `show_slap_loser(seat)` — the loser's LED flashes fast, the buzzer sounds once;
    * `show_stuck(seat)` — that seat's LED blinks slowly until the next command for it;
    * `beep(times)`, `all_off()`, `close()`.
    """

    def __init__(self, led_pins: Mapping[int, int], buzzer: int | None = None, *, pin_factory: Any = None):
        from gpiozero import LED, Buzzer  # gpiozero is only needed where lights are used

        self._leds: dict[int, Any] = {}
        self._buzzer = None
        self._turn: int | None = None
        try:
            for seat, pin in sorted(led_pins.items()):
                try:
                    self._leds[seat] = LED(pin, pin_factory=pin_factory)
                except Exception as exc:
                    raise IndicatorError(f"seat {seat}'s LED on BCM {pin} cannot be opened: "
                                         f"{type(exc).__name__}: {exc}") from exc
            if buzzer is not None:
                try:
                    self._buzzer = Buzzer(buzzer, pin_factory=pin_factory)
                except Exception as exc:
                    raise IndicatorError(f"the buzzer on BCM {buzzer} cannot be opened: "
                                         f"{type(exc).__name__}: {exc}") from exc
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_config(cls, config: Config, **kwargs: Any) -> SeatLights:
        return cls(config.led_pins, config.buzzer, **kwargs)

    @property
    def leds(self) -> dict[int, Any]:
        return dict(self._leds)

    @property
    def buzzer(self) -> Any:
        return self._buzzer

    def show_turn(self, seat: int | None) -> None:
        self._turn = seat
        for s, led in self._leds.items():
            if s == seat:
                led.on()
            else:
                led.off()

    def show_slap_loser(self, seat: int, *, flashes: int = 4) -> None:
        led = self._leds.get(seat)
        if led is not None:
            led.blink(on_time=0.12, off_time=0.12, n=flashes, background=True)
        self.beep(1, on_time=0.3)

    def show_stuck(self, seat: int) -> None:
        led = self._leds.get(seat)
        if led is not None:
            led.blink(on_time=0.5, off_time=0.5, n=None, background=True)

    def beep(self, times: int = 1, *, on_time: float = 0.1, off_time: float = 0.1) -> None:
        if self._buzzer is not None:
            self._buzzer.beep(on_time=on_time, off_time=off_time, n=times, background=True)

    def all_off(self) -> None:
        self._turn = None
        for led in self._leds.values():
            led.off()
        if self._buzzer is not None:
            self._buzzer.off()

    def close(self) -> None:
        for led in self._leds.values():
            led.close()
        self._leds.clear()
        if self._buzzer is not None:
            self._buzzer.close()
            self._buzzer = None

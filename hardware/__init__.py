"""gpiozero devices (buttons, LEDs, buzzer) and the physical board layouts."""

"""What the players press and hear: buttons and the buzzer, behind gpiozero."""

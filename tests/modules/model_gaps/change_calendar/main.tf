# aws 3.39: a change calendar is an SSM document in TEXT format. AWS takes
# DocumentFormat TEXT (botocore's model lists it); moto 5.2.5 answers
# ValidationException "Invalid document format TEXT": the apply fails on the
# emulator, not on the module.
provider "aws" {
  region = "us-east-1"
}

resource "aws_ssm_document" "freeze" {
  name            = "converge-change-freeze"
  document_type   = "ChangeCalendar"
  document_format = "TEXT"
  content         = <<-ICS
    BEGIN:VCALENDAR
    PRODID:-//AWS//Change Calendar 1.0//EN
    VERSION:2.0
    X-CALENDAR-TYPE:DEFAULT_OPEN
    X-WR-CALDESC:
    END:VCALENDAR
  ICS
}

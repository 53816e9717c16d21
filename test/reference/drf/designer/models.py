"""The designer's edit of the spec (test/fixtures/designer/openapi.yaml), as a Django developer writes
its models: each schema constraint as the model field option or stock validator that expresses it.

  Desk.building    pattern ^[A-Z]$                 CharField(max_length=1) + RegexValidator (one capital
                                                   letter: a CharField needs a max_length, and 1 is the
                                                   one the pattern implies)
  Desk.floor       minimum -5, maximum 120          IntegerField + MinValueValidator / MaxValueValidator
  Desk.number      pattern, maxLength 8             CharField(max_length=8) + RegexValidator
  Desk.<booleans>  no default in the spec           BooleanField() (so: required, as the spec's `required`)
  Signature.signer minLength 1, maxLength 40        CharField(max_length=40) (blank=False: not empty)
  Signature.kind   enum paper/electronic, default   CharField(choices=..., default='electronic')
  Signature.witness maxLength 20, writeOnly         CharField(max_length=20); the serializer's
                                                   extra_kwargs make it write_only (serializers.py)
"""

from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models


class Desk(models.Model):
    building = models.CharField(max_length=1, validators=[RegexValidator(r'^[A-Z]$')])
    floor = models.IntegerField(validators=[MinValueValidator(-5), MaxValueValidator(120)])
    number = models.CharField(max_length=8, validators=[RegexValidator(r'^[0-9]+[A-Za-z]*$')])
    active = models.BooleanField()
    lead = models.BooleanField()
    ergonomic = models.BooleanField()
    held_today = models.BooleanField()


class Employee(models.Model):
    name = models.CharField(max_length=200)


class Signature(models.Model):
    KIND_CHOICES = [('paper', 'paper'), ('electronic', 'electronic')]

    signer = models.CharField(max_length=40)
    signed_on = models.DateField()
    kind = models.CharField(max_length=10, choices=KIND_CHOICES, default='electronic')
    witness = models.CharField(max_length=20)

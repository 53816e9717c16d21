from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone


class ActiveDeskManager(models.Manager):
    def get_queryset(self):
        return super().get_queryset().filter(active=True)


class Desk(models.Model):
    """The desk as the deployment models it. Its fields decide the validation of writes, as a
    ModelSerializer derives it: building a ChoiceField, floor an IntegerField between 0 and 32767
    (PositiveSmallIntegerField's range on PostgreSQL), number at most 10 characters and unique ("desk with this
    number already exists."), the booleans and building with defaults (not required)."""

    BUILDINGS = [('S', 'Schaefers'), ('P', 'Park Place')]

    building = models.CharField(max_length=1, choices=BUILDINGS, default='S')
    # The deployment's database is PostgreSQL, where Django gives this field the validators of its
    # column's range (DatabaseOperations.integer_field_ranges: 0..32767) and DRF turns them into
    # min_value / max_value. SQLite reports no range (sqlite3/operations.py integer_field_range:
    # (None, None)), so the reference states them.
    floor = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(0), MaxValueValidator(32767)])
    number = models.CharField(max_length=10, unique=True)
    active = models.BooleanField(default=True)
    lead = models.BooleanField(default=False)
    ergonomic = models.BooleanField(default=False)

    objects = models.Manager()
    active_desks = ActiveDeskManager()

    class Meta:
        ordering = ['building', 'floor', 'number']

    @property
    def held_today(self):
        """Computed, so the serializer makes it a read-only field: whether a hold names today's date
        (in TIME_ZONE)."""
        return self.holds.filter(day=timezone.localdate()).exists()


class DeskHold(models.Model):
    """A desk held for one day (the fixture loader makes one for today where `held_today` is true)."""

    desk = models.ForeignKey(Desk, related_name='holds', on_delete=models.CASCADE)
    day = models.DateField()


# The document describes no field of the other 19 resources: their models have a primary key only.
# Their class names are the deployment's (a 404 names the model: "No Stop matches the given query.").

class Signature(models.Model):
    pass


class TeleworkSignature(models.Model):
    pass


class ViewedSecurityMessage(models.Model):
    pass


class Tag(models.Model):
    pass


class ExpenseStatement(models.Model):
    pass


class ExpenseMonthLock(models.Model):
    pass


class Employee(models.Model):
    pass


class DeskReservation(models.Model):
    pass


class Stop(models.Model):
    pass


class Expense(models.Model):
    pass


class TeleworkApplication(models.Model):
    pass


class TransitionChange(models.Model):
    pass


class TimeOffRequest(models.Model):
    pass


class ExpenseMonth(models.Model):
    pass


class ReviewNote(models.Model):
    pass


class StepChoice(models.Model):
    pass


class PerformanceReview(models.Model):
    pass


class JobTitle(models.Model):
    pass


class Workflow(models.Model):
    pass

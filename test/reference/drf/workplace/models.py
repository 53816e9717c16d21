from django.db import models


class Desk(models.Model):
    building = models.CharField(max_length=1)
    floor = models.IntegerField()
    number = models.CharField(max_length=16)
    active = models.BooleanField(default=True)
    lead = models.BooleanField(default=False)
    ergonomic = models.BooleanField(default=False)
    held_today = models.BooleanField(default=False)


# The interface document describes no field of the other resources: only their primary key is known.

class Signature(models.Model):
    pass


class TeleworkSignature(models.Model):
    pass


class ViewedSecurityMessage(models.Model):
    pass


class ResponsibilityTag(models.Model):
    pass


class ExpenseStatement(models.Model):
    pass


class ExpenseMonthLock(models.Model):
    pass


class Employee(models.Model):
    pass


class DeskReservation(models.Model):
    pass


class MealStop(models.Model):
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


class Review(models.Model):
    pass


class JobTitle(models.Model):
    pass


class Workflow(models.Model):
    pass

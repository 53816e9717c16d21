from rest_framework import serializers

from . import models


class DeskSerializer(serializers.HyperlinkedModelSerializer):
    class Meta:
        model = models.Desk
        fields = ['url', 'pk', 'building', 'floor', 'number', 'active', 'lead', 'ergonomic', 'held_today']


class EmployeeSerializer(serializers.ModelSerializer):
    class Meta:
        model = models.Employee
        fields = ['id', 'name']


class SignatureSerializer(serializers.ModelSerializer):
    class Meta:
        model = models.Signature
        fields = ['pk', 'signer', 'signed_on', 'kind', 'witness']
        extra_kwargs = {'witness': {'write_only': True}}

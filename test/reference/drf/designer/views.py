from django_filters.rest_framework import DjangoFilterBackend
from rest_framework import filters, mixins, viewsets
from rest_framework.pagination import PageNumberPagination

from . import models, serializers


class DeskPagination(PageNumberPagination):
    """PAGE_SIZE from the settings; `page_size` (the spec's parameter, maximum 50) overrides it."""

    page_size_query_param = 'page_size'
    max_page_size = 50


class DeskViewSet(viewsets.ModelViewSet):
    queryset = models.Desk.objects.order_by('pk')
    serializer_class = serializers.DeskSerializer
    pagination_class = DeskPagination
    filter_backends = [DjangoFilterBackend, filters.SearchFilter, filters.OrderingFilter]
    filterset_fields = ['building', 'floor', 'active']
    search_fields = ['number', 'building']
    ordering_fields = ['floor', 'number', 'pk']


class EmployeeViewSet(viewsets.ReadOnlyModelViewSet):
    queryset = models.Employee.objects.order_by('pk')
    serializer_class = serializers.EmployeeSerializer


class SignatureViewSet(mixins.CreateModelMixin, mixins.ListModelMixin, viewsets.GenericViewSet):
    queryset = models.Signature.objects.order_by('pk')
    serializer_class = serializers.SignatureSerializer

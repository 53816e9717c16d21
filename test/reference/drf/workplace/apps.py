from django.apps import AppConfig


class WorkplaceConfig(AppConfig):
    default_auto_field = 'django.db.models.BigAutoField'
    name = 'workplace'

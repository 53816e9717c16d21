from django.apps import AppConfig


class DesignerConfig(AppConfig):
    default_auto_field = 'django.db.models.BigAutoField'
    name = 'designer'

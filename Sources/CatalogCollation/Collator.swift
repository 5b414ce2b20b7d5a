import CICU

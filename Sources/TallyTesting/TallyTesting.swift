import Tally
